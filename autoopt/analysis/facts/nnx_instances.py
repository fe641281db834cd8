"""What calling an nnx module object runs, where autoopt proves which object it is.

`model(x)` runs `type(model).__call__`; `self.layer1(x)` runs the `__call__` of the
object the field holds. An object's *instance* here names what such a call runs:

- the qualified name of a layer the overlay lists as computing new arrays when called
  (`overlays/flax_nnx.py`, `UNKEPT_LAYER_CALLS`: `flax.nnx.Linear`), built with sizes by
  position and options that run no code when it is called (`unkept_arguments.plain_layer`),
  in a module that sets none of the attributes such a layer holds after it is built
  (`LAYER_ATTRIBUTES`, `set_attributes`);
- or the name of a class of this module (`user_classes`): bound once at module level,
  undecorated, with `flax.nnx.Module` its one base and no keyword (no metaclass of its
  own), so an object `C(...)` builds is of exactly that class, whose methods are the
  class body's (`method_problem` asks the rest).

A name holds an instance where one dominating `name = C(...)` alone binds it
(`nnx_modules.binding_call`); a field where its class's `__init__` alone stores it
(`unkept_arguments.field_kind`: nothing else in the module may set an attribute of that
name). The nnx transforms keep a module argument's class (`ARGUMENT_TRANSFORMS`), so the
function they call holds, in that parameter, an object of the same class: purity follows
the instance through them (`facts/purity.py`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import scope_nodes
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.facts.constructors import field_value, init_fields
from autoopt.analysis.facts.nnx_modules import binding_call
from autoopt.analysis.facts.unkept_arguments import (
    LAYER,
    field_kind,
    plain_layer,
    stored_anywhere,
    stored_elsewhere,
)
from autoopt.analysis.overlays import flax_nnx as nnx_api

#: Methods through which a class may answer an attribute read, or build its objects,
#: other than as its body says.
_HOOKS = frozenset({"__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__new__"})


def called_instance(ctx: ModuleContext, reader: Stmt, name: str) -> str | None:
    """The instance `name` holds where `reader` reads it, else None."""
    call = binding_call(ctx, reader, name)
    if call is None:
        return None
    layer = plain_layer(ctx, call)
    if layer in nnx_api.UNKEPT_LAYER_CALLS:
        return layer if _layers_kept(ctx) else None
    func = call.func
    return func.value if type(func) is cst.Name and func.value in user_classes(ctx) else None


def field_instance(ctx: ModuleContext, cls: str, field: str) -> str | None:
    """The instance field `field` of an object of the class `cls` holds, else None: what
    `unkept_arguments.field_kind` reads, or an object of a class of the module (whose
    own fields that does not read: its methods may change them) that every store of the
    field builds."""
    kind = field_kind(ctx, cls, field)
    if kind.startswith(LAYER):
        layer = kind[len(LAYER) :]
        return layer if layer in nnx_api.UNKEPT_LAYER_CALLS and _layers_kept(ctx) else None
    if kind in user_classes(ctx):
        return kind
    found = init_fields(ctx, cls)
    if found is None or stored_elsewhere(ctx, field, found[1]):
        return None
    built = {_built_class(ctx, field_value(s)) for s in found[1] if _stored_field(s) == field}
    return built.pop() if len(built) == 1 else None


def _built_class(ctx: ModuleContext, value: cst.BaseExpression) -> str | None:
    """`C(...)` -> `C`, a class of the module whose objects are instances."""
    func = value.func if type(value) is cst.Call else None
    return func.value if type(func) is cst.Name and func.value in user_classes(ctx) else None


def _stored_field(stmt: Stmt) -> str:
    """The field a store of `constructors.init_fields` sets (`self.f = v` -> `f`)."""
    node = stmt.node
    assert type(node) is cst.Assign
    target = node.targets[0].target
    assert type(target) is cst.Attribute
    return target.attr.value


def _layers_kept(ctx: ModuleContext) -> bool:
    """Whether no code of the module may set an attribute of a listed layer after it is
    built (`layer.dot_general = hook`, `model.set_attributes(...)`, `setattr`), nor its
    class's `__call__`: its call then runs flax's code alone."""
    return ctx.per_module(_kept_layers)


def _kept_layers(ctx: ModuleContext) -> bool:
    if nnx_api.SET_ATTRIBUTES in ctx.source:
        return False
    names = nnx_api.LAYER_ATTRIBUTES | {"__call__", "__class__"}
    return not any(stored_anywhere(ctx, name) for name in sorted(names))


def is_layer(instance: str) -> bool:
    """Whether an instance is a listed layer (else a class of this module)."""
    return instance in nnx_api.UNKEPT_LAYER_CALLS


def method_problem(ctx: ModuleContext, cls: str, method: str) -> str:
    """Why `method` of an object of the class `cls` may run other code than the one `def`
    of the class body ("" when it cannot)."""
    node = user_classes(ctx).get(cls)
    if node is None:
        return "is not read"
    body = node.body.body if type(node.body) is cst.IndentedBlock else ()
    defs = [s for s in ctx.graph.scope_stmts(cls) if method in s.defs]
    own = [s for s in body if type(s) is cst.FunctionDef]
    if {s.name.value for s in own} & _HOOKS:
        return "may be reached through an attribute hook of the class"
    if len(defs) != 1 or type(defs[0].node) is not cst.FunctionDef or defs[0].node.decorators:
        return "is not one undecorated `def` of the class"
    if stored_anywhere(ctx, method) or stored_anywhere(ctx, "__class__"):
        return "may be replaced by an attribute the program sets"
    return ""


def instance_methods(ctx: ModuleContext, instance: str) -> list[Function]:
    """The methods a call of an object of `instance` may run: its class's but
    `__init__`, and those of the classes its fields hold (none for a listed layer)."""
    found: dict[str, Function] = {}
    todo = [] if is_layer(instance) else [instance]
    seen: set[str] = set()
    while todo:
        cls = todo.pop()
        seen.add(cls)
        for qualname, fn in ctx.graph.functions.items():
            if fn.scope == cls and fn.name != "__init__":
                found[qualname] = fn
                for field in _self_attributes(fn):
                    inner = field_instance(ctx, cls, field)
                    if inner is not None and not is_layer(inner) and inner not in seen:
                        todo.append(inner)
    return list(found.values())


def user_classes(ctx: ModuleContext) -> dict[str, cst.ClassDef]:
    """The classes of this module whose objects `C(...)` builds are instances: bound once
    at module level, undecorated, `flax.nnx.Module` their one base, no keyword."""
    return ctx.per_module(_user_classes)


def _user_classes(ctx: ModuleContext) -> dict[str, cst.ClassDef]:
    stmts = ctx.graph.scope_stmts(MODULE)
    found = {}
    for stmt in stmts:
        node = stmt.node
        if type(node) is not cst.ClassDef or node.decorators or node.keywords:
            continue
        name = node.name.value
        once = sum(name in s.defs for s in stmts) == 1
        bases = [ctx.qualify(b.value) for b in node.bases]
        if once and len(bases) == 1 and bases[0] in nnx_api.USER_MODULE_BASES:
            found[name] = node
    return found


def _self_attributes(fn: Function) -> set[str]:
    """The attributes a method reads of its first parameter (`self.layer1`)."""
    me = fn.params[0] if fn.params else ""
    return {
        node.attr.value
        for node in scope_nodes(fn.node.body)
        if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == me
    }
