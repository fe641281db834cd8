"""One building of a linen module class: whether the values it gives can become variables.

`facts/linen_fields.py` proves a field inert whatever value it is given. A field it does
not is still harmless for one building, `ResNet(act_fn=nn.relu, block_class=ResNetBlock,
sizes=(3, 3))`, given (by keyword, or by position in the order the fields are declared;
none behind `*` or `**`; a field given nothing keeps its default, part of the class's
sealed code):

- a constant, which is no module, function or array; a list of them, where flax keeps
  that very list (`LISTED`, for `facts/linen_trees.py`);
- one of JAX's own array functions (`flax_linen.JAX_FUNCTIONS`: `nn.relu is jax.nn.relu`,
  no module and no array of its own), named through an import nothing else binds, where
  each read of the field is inert (`linen_fields.inert_read`), called (`self.act_fn(x)`:
  a function makes no variable), or handed by keyword or position to a field of a
  linen module class of this module (sealed, deriving from `flax.linen.Module` alone)
  read so there in turn (`DenseLayer(act_fn=self.act_fn)`), or by keyword to a field of
  a class another field of this building is given (below);
- a *given class*: a linen module class of this module, bound once at its top level
  (and nothing rebinding it by name), whose chain of bases (each such a class, one base,
  no keyword, no decorator) ends at one deriving from `flax.linen.Module` alone, all of
  their code sealed (`facts/sealed.py`), where each read of the field is inert (`==`,
  `is`) or called with keywords only, each a field the chain declares
  (`self.block_class(c_out=8, act_fn=self.act_fn)`): the class then builds a submodule
  whose code is sealed, given values computed by this class's sealed code or its fields
  (each read checked where it is handed on, as above).

Anything else is not proven (None).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import bound_names, is_constant, is_literal
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.linen_fields import field_names, field_reads, inert_field, inert_read
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.facts.sealed import class_def, sealed_code
from autoopt.analysis.facts.self_attrs import walk_parents
from autoopt.analysis.overlays import flax_linen as linen_api

#: `built_fields`: every field the call gives a value is inert, or harmless so given;
#: or so but for lists of constants among them.
AS_BUILT = "inert"
LISTED = "listed"
_MAX_CHAIN = 8


@dataclass(frozen=True)
class _Chain:
    """A given class, its bases of this module up to the linen one, and their fields."""

    classes: tuple[str, ...]
    fields: tuple[str, ...]


def built_fields(ctx: ModuleContext, cls: str, call: cst.Call) -> str | None:
    """`AS_BUILT` where no field of the module class `cls` that `call` gives a value can
    become one of its variables; `LISTED` where so but some field not inert is given a
    list; None otherwise."""
    fields = field_names(ctx, cls)
    if fields is None or any(a.star for a in call.args):
        return None
    bound: dict[str, cst.BaseExpression] = {}
    for position, arg in enumerate(call.args):
        field = arg.keyword.value if arg.keyword is not None else None
        if field is None and position < len(fields):
            field = fields[position]
        if field not in fields or field in bound:
            return None
        bound[field] = arg.value
    given = {f: c for f, v in bound.items() if (c := _given_class(ctx, v)) is not None}
    found = AS_BUILT
    for field, value in bound.items():
        if inert_field(ctx, cls, field) or is_constant(value):
            continue
        if is_literal(value):
            found = LISTED
        elif not _harmless(ctx, cls, field, value, given):
            return None
    return found


def _harmless(
    ctx: ModuleContext,
    cls: str,
    field: str,
    value: cst.BaseExpression,
    given: dict[str, _Chain],
) -> bool:
    """`value` is a given class the field only builds, or one of JAX's functions it only
    calls or hands on to be called."""
    if field in given:
        return _class_field(ctx, cls, field, given[field])
    seen = frozenset({f"{cls}.{field}"})
    return _jax_function(ctx, value) and _called_field(ctx, (cls,), field, seen, given)


def _jax_function(ctx: ModuleContext, value: cst.BaseExpression) -> bool:
    """`nn.relu`, `jax.nn.gelu`: one of JAX's own array functions, named in place through
    an import nothing else binds (`_import_only`)."""
    qual = ctx.qualify(value) or ""
    last = qual.rsplit(".", 1)[-1]
    jax_name = qual == f"jax.nn.{last}" and f"flax.linen.{last}" in linen_api.JAX_FUNCTIONS
    if qual not in linen_api.JAX_FUNCTIONS and not jax_name:
        return False
    root = value
    while type(root) is cst.Attribute:
        root = root.value
    return type(root) is cst.Name and ctx.per_module(_import_only, root.value)


def _import_only(ctx: ModuleContext, name: str) -> bool:
    """Only imports of the module's top level bind `name`: no other statement, function
    or lambda parameter, comprehension or `:=` target, and nothing through the module's
    namespace (`facts/reflection.py`)."""
    graph = ctx.graph
    for stmt in graph.stmts:
        imported = stmt.scope == MODULE and type(stmt.node) in (cst.Import, cst.ImportFrom)
        if name in stmt.defs and not imported:
            return False
    bound = rebinding(ctx)
    if bound.anything or name in bound.names:
        return False
    return not _bound_in_code(ctx, name)


def _bound_in_code(ctx: ModuleContext, name: str) -> bool:
    """A parameter, a comprehension variable or a `:=` target anywhere is named `name`."""
    for node, _ in walk_parents(ctx.module, None):
        if type(node) is cst.Param and node.name.value == name:
            return True
        binder = type(node) in (cst.CompFor, cst.NamedExpr)
        if binder and name in set(bound_names(node.target)):  # type: ignore[attr-defined]
            return True
    return False


def _given_class(ctx: ModuleContext, value: cst.BaseExpression) -> _Chain | None:
    """`ResNetBlock`: a class of this module bound once at its top level, whose chain of
    bases ends at one deriving from `flax.linen.Module` alone, all of it sealed."""
    if type(value) is not cst.Name or not _bound_once(ctx, value.value):
        return None
    chain: list[str] = []
    name = value.value
    while len(chain) < _MAX_CHAIN and name not in chain:
        node = class_def(ctx, name)
        if node is None or len(node.bases) != 1 or node.keywords or node.decorators:
            return None
        chain.append(name)
        base = node.bases[0].value
        if ctx.qualify(base) in linen_api.MODULE_BASES:
            return _sealed_chain(ctx, tuple(chain))
        if type(base) is not cst.Name or not _bound_once(ctx, base.value):
            return None
        name = base.value
    return None


def _sealed_chain(ctx: ModuleContext, classes: tuple[str, ...]) -> _Chain | None:
    """The chain and its fields (bases first), where all of its code is sealed."""
    if not all(sealed_code(ctx, c) for c in classes):
        return None
    fields: list[str] = []
    for cls in reversed(classes):
        for stmt in ctx.graph.scope_stmts(cls):
            target = getattr(stmt.node, "target", None)
            if type(stmt.node) is cst.AnnAssign and type(target) is cst.Name:
                fields += [] if target.value in fields else [target.value]
    return _Chain(classes, tuple(fields))


def _bound_once(ctx: ModuleContext, name: str) -> bool:
    """One statement of the program binds `name`, a class definition at the top level,
    and nothing rebinds it by name."""
    binders = [s for s in ctx.graph.stmts if name in s.defs]
    if len(binders) != 1 or binders[0].scope != MODULE or type(binders[0].node) is not cst.ClassDef:
        return False
    bound = rebinding(ctx)
    return not (bound.anything or name in bound.names or _bound_in_code(ctx, name))


def _class_field(ctx: ModuleContext, cls: str, field: str, given: _Chain) -> bool:
    """Every read of `self.field` in `cls` is inert, or called with keywords only, each a
    field of the given class's chain."""
    reads = field_reads(ctx, (cls,), field)
    return reads is not None and all(
        inert_read(ctx, node, me, (cls,)) or _builds(ctx, node, given) for node, me in reads
    )


def _builds(ctx: ModuleContext, node: cst.Attribute, given: _Chain) -> bool:
    """`self.f(c_out=8, act_fn=self.act_fn)`: keywords only, each a field of `given`."""
    parent = ctx.ancestors(node)[-2]
    if type(parent) is not cst.Call or parent.func is not node:
        return False
    return all(
        a.keyword is not None and not a.star and a.keyword.value in given.fields
        for a in parent.args
    )


def _called_field(
    ctx: ModuleContext,
    classes: tuple[str, ...],
    field: str,
    seen: frozenset[str],
    given: dict[str, _Chain],
) -> bool:
    """Every read of `self.field` in `classes` is inert, called, or handed to a field read
    so in turn (`built_fields`); `seen`: the fields (`Class.field`) being followed, which
    a cycle hands the value back to; `given`: the classes the building gives fields of
    `classes` (only of the class built)."""
    reads = field_reads(ctx, classes, field)
    return reads is not None and all(
        inert_read(ctx, node, me, classes) or _called_read(ctx, node, me, seen, given)
        for node, me in reads
    )


def _called_read(
    ctx: ModuleContext,
    node: cst.Attribute,
    me: str,
    seen: frozenset[str],
    given: dict[str, _Chain],
) -> bool:
    """`self.f(...)`; or `self.f` bound to a field of a linen module class of this module
    (sealed, deriving from `flax.linen.Module` alone), or by keyword to one of a class a
    field is given (`self.block_class(act_fn=self.f)`), read as `_called_field` asks."""
    parent = ctx.ancestors(node)[-2]
    if type(parent) is cst.Call and parent.func is node:
        return True
    if type(parent) is not cst.Arg or parent.value is not node or parent.star:
        return False
    call = ctx.ancestors(parent)[-2]
    if type(call) is not cst.Call or any(a.star for a in call.args):
        return False
    target = _target(ctx, call, me, given)
    if target is None:
        return False
    classes, fields, positional = target
    bound = parent.keyword.value if parent.keyword is not None else None
    position = call.args.index(parent)
    if bound is None and positional and position < len(fields):
        bound = fields[position]
    if bound not in fields:
        return False
    key = f"{classes[0]}.{bound}"
    return key in seen or _called_field(ctx, classes, bound, seen | {key}, {})


def _target(
    ctx: ModuleContext, call: cst.Call, me: str, given: dict[str, _Chain]
) -> tuple[tuple[str, ...], tuple[str, ...], bool] | None:
    """The classes `call` builds, their fields, and whether it binds them by position:
    `Sub(...)`, a sealed class deriving from `flax.linen.Module` alone, or
    `self.block_class(...)`, a field given a class (keywords only)."""
    func = call.func
    if type(func) is cst.Name:
        fields = field_names(ctx, func.value)
        sealed = fields is not None and sealed_code(ctx, func.value)
        return ((func.value,), tuple(fields or ()), True) if sealed else None
    if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == me:
        chain = given.get(func.attr.value)
        return (chain.classes, chain.fields, False) if chain is not None else None
    return None
