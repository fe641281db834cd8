"""Linen modules a call builds, and whether `init` on one makes new buffers only.

`linen_module(ctx, call)` names what `call` builds, for `facts/fresh.py`:

- `LINEN_MODULE`: a linen layer (`nn.Dense(3)`) built from literals; a class of this
  module deriving from `flax.linen.Module` directly, binding none of its names (as an
  assembled module's classes, below) and with sealed code (`facts/sealed.py`), built
  from constants or with inert fields (`facts/linen_fields.py`, or for this building:
  `facts/linen_builds.py`): an initializer handed in may return an array it holds;
  built from literals with a list (or an f-string) among them, some field not inert,
  `ASSEMBLED`: flax keeps that very list;
- `LINEN_ENTRY`: such a class, built so but for lists, whose code is sealed only where
  `init` runs it by default (`sealed.sealed_entry`): its `init` is fresh only given no
  `method`;
- a module *assembled* from others, below: `LINEN_MODULE`, or `ASSEMBLED` where a field
  holds a list the call's code made. `flax.linen` keeps that very list, which whoever
  holds it may change (`tests/analysis/overlays/test_flax_linen.py`), so `init` makes
  new buffers only where nothing that holds the module can have changed it
  (`facts/module_custody.py`, asked by `facts/fresh.py`).

An assembled module is built by `C(...)`, `C` a class of this module, bound once, whose
chain of bases (each a class of this module, bound once, with one base, no keyword and
no decorator) ends at `flax.linen.Module` (`VariationalDequantization(Dequantization)`);
no class of the chain binds a name `flax.linen.Module` has
(`flax_linen.MODULE_ATTRIBUTES`: `init`, `init_with_output`, `clone`, what `init` runs)
or a dunder name but `__call__`, and none but the last stores an attribute
(`facts/linen_fields.py` reads a layer `setup` stores in the class whose method reads
it); its code is sealed, all of it (a submodule may call `self.parent.m()`). Each
argument binds a field of the chain (declared in the class bodies, bases first; by
position only when no field is a `ClassVar`, `InitVar`, `KW_ONLY` or given a call) and
is a constant, or binds a field inert in every class of the chain, or binds a
*submodule field* and is a *module value*.

A submodule field's every read `self.f` in the chain is inert, a call `self.f(...)`, or
the iterable of a `for` loop (`for m in self.f`, `for m in reversed(self.f)`) whose
target is a name its function mentions only as such a target or called (`m(...)`): the
module calls what the field holds, which then makes its variables by its own code.

A module value is a call `linen_module` proves (`LINEN_MODULE` or `ASSEMBLED`), a tuple
or list display or a list comprehension of such, or a name local to a function (in no
comprehension or lambda there) that the function mentions only as the one target of an
assignment of a module value, as the target of `+=` of one, and at the expression
followed: whatever it holds, a list it adds to too, holds only such modules, and nothing
else holds that list. A call of a module-level function of this module (undecorated,
bound once, no generator) whose every `return` gives a module value is one too
(`create_flow()`, a factory).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_constant, is_literal
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.core.walk import children
from autoopt.analysis.facts.linen_builds import AS_BUILT, built_fields
from autoopt.analysis.facts.linen_data import bound_once
from autoopt.analysis.facts.linen_fields import field_reads, inert_fields, inert_read
from autoopt.analysis.facts.sealed import class_def, sealed_code, sealed_entry
from autoopt.analysis.facts.self_attrs import method_targets, walk_parents
from autoopt.analysis.overlays import flax_linen as linen_api

LINEN_MODULE = "flax.linen.Module"
LINEN_ENTRY = "flax.linen.Module(entry)"
ASSEMBLED = "flax.linen.Module(assembled)"
_MODULES = (LINEN_MODULE, ASSEMBLED)
_MAX_CHAIN = 8
_CALL = "__call__"
_NOT_FIELDS = ("ClassVar", "InitVar", "KW_ONLY")
_LATER = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)


def linen_module(
    ctx: ModuleContext, call: cst.Call, seen: frozenset[str] = frozenset()
) -> str | None:
    """What `call` builds, of `LINEN_MODULE`, `LINEN_ENTRY` and `ASSEMBLED` (None:
    unknown); `seen`: the classes and names being followed."""
    func = call.func
    qual = ctx.qualify(func) or ""
    literal = all(is_literal(a.value) and not a.star for a in call.args)
    if qual.startswith("flax.linen.") and qual.rsplit(".", 1)[-1][:1].isupper():
        layer = literal and qual not in linen_api.TRANSFORMS
        return LINEN_MODULE if layer else None
    if type(func) is not cst.Name:
        return None
    node = class_def(ctx, func.value)
    if node is None:
        return _factory(ctx, call, func.value, seen)
    return _plain(ctx, call, node, literal) or _assembled(ctx, call, func.value, seen)


def _plain(ctx: ModuleContext, call: cst.Call, node: cst.ClassDef, literal: bool) -> str | None:
    """A class deriving from `flax.linen.Module` directly, binding none of its names
    (`_own_names_kept`), with sealed code, built from literals or with inert fields (or
    so as built: `facts/linen_builds.py`); `ASSEMBLED` where given a list, some field
    not inert (flax keeps that very list, which whoever holds the module may change)."""
    cls = node.name.value
    inert = inert_fields(ctx, cls)
    built = None if literal or inert else built_fields(ctx, cls, call)
    bases = {ctx.qualify(b.value) for b in node.bases if b.keyword is None}
    if not (literal or inert or built) or not bases & linen_api.MODULE_BASES:
        return None
    if not _own_names_kept(ctx, cls):
        return None
    kept = inert or built == AS_BUILT or all(is_constant(a.value) for a in call.args)
    if sealed_code(ctx, cls):
        return LINEN_MODULE if kept else ASSEMBLED
    return LINEN_ENTRY if kept and sealed_entry(ctx, cls) else None


def _assembled(ctx: ModuleContext, call: cst.Call, cls: str, seen: frozenset[str]) -> str | None:
    """An assembled module (the module docstring), `ASSEMBLED` where a field holds a list
    the code made."""
    stmt = ctx.graph_statement(call)
    chain = _chain(ctx, cls) if cls not in seen else None
    if stmt is None or chain is None or not bound_once(ctx, stmt, cls):
        return None
    if not sealed_code(ctx, cls):
        return None
    fields, positional = _fields(ctx, chain)
    made = LINEN_MODULE
    for i, arg in enumerate(call.args):
        if arg.star or (arg.keyword is None and not positional):
            return None
        field = arg.keyword.value if arg.keyword else fields[i] if i < len(fields) else None
        if is_constant(arg.value):
            continue
        if field not in fields:
            return None
        value = _field_value(ctx, chain, field, arg.value, seen | {cls})
        if value is None:
            return None
        made = ASSEMBLED if value == ASSEMBLED else made
    return made


def _field_value(
    ctx: ModuleContext,
    chain: tuple[str, ...],
    field: str,
    value: cst.BaseExpression,
    seen: frozenset[str],
) -> str | None:
    """`LINEN_MODULE` where `value` may bind `field` (inert, or a submodule field given a
    module value without a list), `ASSEMBLED` where with one; None otherwise."""
    reads = field_reads(ctx, chain, field)
    if reads is None:
        return None
    if all(inert_read(ctx, node, me, chain) for node, me in reads):
        return LINEN_MODULE
    if not all(inert_read(ctx, n, me, chain) or _applied(ctx, n) for n, me in reads):
        return None
    return module_value(ctx, value, seen)


def _chain(ctx: ModuleContext, cls: str) -> tuple[str, ...] | None:
    """`cls` and its bases up to the one deriving from `flax.linen.Module`, as the module
    docstring asks of them."""
    chain: list[str] = []
    name = cls
    while len(chain) < _MAX_CHAIN and name not in chain:
        node = class_def(ctx, name)
        if node is None or len(node.bases) != 1 or node.keywords or node.decorators:
            return None
        if not _own_names_kept(ctx, name):
            return None
        chain.append(name)
        base = node.bases[0].value
        if ctx.qualify(base) in linen_api.MODULE_BASES:
            stored = any(
                type(t) is cst.Attribute for c in chain[:-1] for *_, t in method_targets(ctx, c)
            )
            return None if stored else tuple(chain)
        if (
            type(base) is not cst.Name
            or sum(base.value in s.defs for s in ctx.graph.scope_stmts(MODULE)) != 1
        ):
            return None
        name = base.value
    return None


def _own_names_kept(ctx: ModuleContext, cls: str) -> bool:
    """The class body binds no name of `flax.linen.Module` and no dunder name but
    `__call__`."""
    names = {n for s in ctx.graph.scope_stmts(cls) for n in s.defs}
    dunders = {n for n in names if n.startswith("__") and n.endswith("__")}
    return not (names & linen_api.MODULE_ATTRIBUTES or dunders - {_CALL})


def _fields(ctx: ModuleContext, chain: tuple[str, ...]) -> tuple[list[str], bool]:
    """The fields of the chain, bases first, and whether they bind positional arguments
    in that order."""
    fields: list[str] = []
    positional = True
    for cls in reversed(chain):
        for stmt in ctx.graph.scope_stmts(cls):
            node = stmt.node
            if type(node) is not cst.AnnAssign or type(node.target) is not cst.Name:
                continue
            annotation = ctx.code(node.annotation.annotation)
            if type(node.value) is cst.Call or any(w in annotation for w in _NOT_FIELDS):
                positional = False
            if node.target.value not in fields:
                fields.append(node.target.value)
    return fields, positional


def _applied(ctx: ModuleContext, node: cst.Attribute) -> bool:
    """`self.f(...)`, or `self.f` the iterable (itself or through `reversed`) of a `for`
    whose target its function mentions only as such a target or called."""
    path = ctx.ancestors(node)
    parent = path[-2]
    if type(parent) is cst.Call and parent.func is node:
        return True
    iterable: cst.CSTNode = node
    if type(parent) is cst.Arg and _reversed(ctx, path[-3], parent):
        iterable, path = path[-3], path[:-2]
    loop = path[-2]
    if type(loop) is not cst.For or loop.iter is not iterable or type(loop.target) is not cst.Name:
        return False
    function = next((n for n in reversed(path) if type(n) is cst.FunctionDef), None)
    return function is not None and _only_called(ctx, function, loop.target.value)


def _reversed(ctx: ModuleContext, call: cst.CSTNode, arg: cst.Arg) -> bool:
    """`reversed(x)`, the builtin, given `x` alone."""
    if (
        type(call) is not cst.Call
        or type(call.func) is not cst.Name
        or call.func.value != "reversed"
    ):
        return False
    rebound = "reversed" in ctx.imports.bindings or any(
        "reversed" in s.defs for s in ctx.graph.stmts
    )
    return not rebound and call.args == (arg,) and not arg.keyword and not arg.star


def _only_called(ctx: ModuleContext, function: cst.FunctionDef, name: str) -> bool:
    """`function` mentions `name` only as the target of a `for` over a submodule field
    (`_applied`) or as the function of a call."""
    for node, parent in walk_parents(function, None):
        if type(node) is not cst.Name or node.value != name:
            continue
        if type(parent) is cst.Call and parent.func is node:
            continue
        if type(parent) is cst.For and parent.target is node and _iterates_field(parent):
            continue
        return False
    return True


def _iterates_field(loop: cst.For) -> bool:
    """The loop's iterable is `self.f` or `reversed(self.f)` (the field's reads are
    checked where `self.f` is read)."""
    it = loop.iter
    if (
        type(it) is cst.Call
        and len(it.args) == 1
        and type(it.func) is cst.Name
        and it.func.value == "reversed"
    ):
        it = it.args[0].value
    return type(it) is cst.Attribute and type(it.value) is cst.Name


def module_value(ctx: ModuleContext, expr: cst.BaseExpression, seen: frozenset[str]) -> str | None:
    """`LINEN_MODULE` or `ASSEMBLED` where `expr` is a module value (the module
    docstring), `ASSEMBLED` where it is or holds a list; None otherwise."""
    if type(expr) is cst.Call:
        made = linen_module(ctx, expr, seen)
        return made if made in _MODULES else None
    if type(expr) in (cst.List, cst.Tuple):
        elements = expr.elements  # type: ignore[attr-defined]
        if any(type(e) is not cst.Element for e in elements):
            return None  # `*rest`
        values = [module_value(ctx, e.value, seen) for e in elements]
        if None in values:
            return None
        return ASSEMBLED if type(expr) is cst.List or ASSEMBLED in values else LINEN_MODULE
    if type(expr) is cst.ListComp:
        return ASSEMBLED if module_value(ctx, expr.elt, seen) else None
    if type(expr) is cst.Name:
        return _held(ctx, expr, seen)
    return None


def _held(ctx: ModuleContext, name: cst.Name, seen: frozenset[str]) -> str | None:
    """A local name whose every binding gives a module value and that its function
    mentions nowhere else but at `name`."""
    path = ctx.ancestors(name)
    scope = next((n for n in reversed(path[:-1]) if isinstance(n, _SCOPES)), None)
    if type(scope) is not cst.FunctionDef or any(isinstance(n, _LATER) for n in path):
        return None
    key = f"{name.value}@{id(scope)}"
    if key in seen:
        return None
    values = _bound_values(scope, name)
    if not values:
        return None
    found = [module_value(ctx, v, seen | {key}) for v in values]
    if None in found:
        return None
    return ASSEMBLED if ASSEMBLED in found else LINEN_MODULE


def _bound_values(scope: cst.FunctionDef, name: cst.Name) -> list[cst.BaseExpression]:
    """What `scope` assigns or adds (`+=`) to `name`, where it mentions it nowhere else but
    at `name` itself; [] otherwise."""
    if name.value in parameter_names(scope):
        return []
    targets: dict[int, cst.BaseExpression] = {}
    for node, _ in walk_parents(scope, None):
        if type(node) is cst.Assign and len(node.targets) == 1:
            targets[id(node.targets[0].target)] = node.value
        elif type(node) is cst.AugAssign and type(node.operator) is cst.AddAssign:
            targets[id(node.target)] = node.value
    values: list[cst.BaseExpression] = []
    for node, _ in walk_parents(scope, None):
        if type(node) is not cst.Name or node.value != name.value or node is name:
            continue
        if id(node) not in targets:
            return []
        values.append(targets[id(node)])
    return values


def _factory(ctx: ModuleContext, call: cst.Call, name: str, seen: frozenset[str]) -> str | None:
    """A module-level function of this module, undecorated, bound once, no generator,
    whose every `return` gives a module value."""
    fn = ctx.graph.functions.get(name)
    stmt = ctx.graph_statement(call)
    if (
        fn is None
        or fn.scope != MODULE
        or fn.node.decorators
        or fn.node.asynchronous
        or name in seen
    ):
        return None
    if stmt is None or not bound_once(ctx, stmt, name):
        return None
    returns = [r for r in _own(fn.node, cst.Return) if type(r) is cst.Return]
    if not returns or any(_own(fn.node, cst.Yield)) or any(r.value is None for r in returns):
        return None
    found = [module_value(ctx, r.value, seen | {name}) for r in returns if r.value is not None]
    if None in found:
        return None
    return ASSEMBLED if ASSEMBLED in found else LINEN_MODULE


def _own(function: cst.FunctionDef, kind: type[cst.CSTNode]) -> list[cst.CSTNode]:
    """The nodes of type `kind` in the function's own body (no nested scope's)."""
    found: list[cst.CSTNode] = []
    todo: list[cst.CSTNode] = [function.body]
    while todo:
        node = todo.pop()
        if type(node) is kind:
            found.append(node)
        if not isinstance(node, _SCOPES):
            todo += list(children(node))
    return found


def parameter_names(function: cst.FunctionDef) -> set[str]:
    """Every parameter of `function`, `*args` and `**kwargs` included."""
    params = function.params
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    found += [p for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param]
    return {p.name.value for p in found}
