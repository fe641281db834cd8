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
(`nnx_modules.binding_call`), or, a parameter its function never binds again, where every
call of the function, all known (`facts/known_callers.py`), gives it a name holding that
one instance (the extracted step's `model`, given the loop's); a field where its class's
`__init__` alone stores it (`unkept_arguments.field_kind`, or `closure_factories.leaf_fields`
where `__init__` also calls factory methods: nothing else in the module may set an
attribute of that name). A field every store of which is a factory method's closure
(`self.down = self._block(8, 16, rngs)`) runs that closure (`field_closure`), whose calls
of the factory's plainly built listed layers run those (`closure_layer`). Stores into
its own first parameter in the `__init__` of a class of `user_classes` set the object
that class builds, no listed layer, where no code runs an `__init__` on an object it is
given (`unkept_arguments.init_named`): they leave the listed layers kept. The nnx
transforms keep a module argument's class (`ARGUMENT_TRANSFORMS`), so the
function they call holds, in that parameter, an object of the same class: purity follows
the instance through them (`facts/purity.py`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import scope_nodes
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.facts.attribute_stores import (
    stored_anywhere,
    stored_elsewhere,
)
from autoopt.analysis.facts.closure_factories import field_closure, leaf_fields
from autoopt.analysis.facts.constructors import field_value
from autoopt.analysis.facts.kept_layers import layers_kept, user_classes
from autoopt.analysis.facts.known_callers import known_call_sites
from autoopt.analysis.facts.nnx_modules import binding_call
from autoopt.analysis.facts.plain_layers import plain_layer
from autoopt.analysis.facts.unkept_arguments import LAYER, field_kind
from autoopt.analysis.overlays import flax_nnx as nnx_api

#: Methods through which a class may answer an attribute read, or build its objects,
#: other than as its body says.
_HOOKS = frozenset({"__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__new__"})


def called_instance(
    ctx: ModuleContext, reader: Stmt, name: str, _seen: frozenset[str] = frozenset()
) -> str | None:
    """The instance `name` holds where `reader` reads it, else None: a local bound to one
    (`binding_call`), or a parameter of the function `reader` is in that holds one
    throughout (`_parameter_instance`; `_seen`, the functions asked on the way there)."""
    fn = ctx.graph.functions.get(reader.scope)
    if fn is not None and name in fn.params:
        return _parameter_instance(ctx, fn, name, _seen)
    call = binding_call(ctx, reader, name)
    if call is None:
        return None
    layer = plain_layer(ctx, call)
    if layer in nnx_api.UNKEPT_LAYER_CALLS:
        return layer if layers_kept(ctx) else None
    func = call.func
    return func.value if type(func) is cst.Name and func.value in user_classes(ctx) else None


def _parameter_instance(
    ctx: ModuleContext, fn: Function, name: str, seen: frozenset[str]
) -> str | None:
    """The instance the parameter `name` of `fn` holds wherever `fn` reads it: `fn` binds
    it nowhere else (nor declares it `global` or `nonlocal`), and every call of `fn`, all
    known (`facts/known_callers.py`), gives it a name that holds that one instance there
    (`called_instance`, the caller's parameters followed in turn); None otherwise (a
    default left to, an argument unpacked, a caller out of sight, a recursion)."""
    if fn.qualname in seen or name in fn.globals | fn.nonlocals:
        return None
    if any(name in s.defs for s in ctx.graph.scope_stmts(fn.qualname)):
        return None
    sites, unknown = known_call_sites(ctx, fn)
    if unknown or not sites or (name not in fn.positional and name not in _keyword_only(fn)):
        return None
    index = fn.positional.index(name) if name in fn.positional else -1
    held: set[str | None] = set()
    for site in sites:
        given = site.argument(index, name)
        if type(given) is not cst.Name:
            return None
        held.add(called_instance(ctx, site.stmt, given.value, seen | {fn.qualname}))
    found = held.pop() if len(held) == 1 else None
    return found


def _keyword_only(fn: Function) -> set[str]:
    return {p.name.value for p in fn.node.params.kwonly_params}


def field_instance(ctx: ModuleContext, cls: str, field: str) -> str | None:
    """The instance field `field` of an object of the class `cls` holds, else None: what
    `unkept_arguments.field_kind` reads, or an object of a class of the module (whose
    own fields that does not read: its methods may change them) that every store of the
    field builds."""
    kind = field_kind(ctx, cls, field)
    if kind.startswith(LAYER):
        layer = kind[len(LAYER) :]
        return layer if layer in nnx_api.UNKEPT_LAYER_CALLS and layers_kept(ctx) else None
    if kind in user_classes(ctx):
        return kind
    found = leaf_fields(ctx, cls)
    if found is None or stored_elsewhere(ctx, field, found[1]):
        return None
    built = {_built(ctx, field_value(s)) for s in found[1] if _stored_field(s) == field}
    return built.pop() if len(built) == 1 else None


def _built(ctx: ModuleContext, value: cst.BaseExpression) -> str | None:
    """The instance a value `__init__` stores builds: an object of a class of the module,
    or a listed layer built plainly (`plain_layer`, in a module that keeps its layers)."""
    layer = plain_layer(ctx, value)
    if layer in nnx_api.UNKEPT_LAYER_CALLS:
        return layer if layers_kept(ctx) else None
    return _built_class(ctx, value)


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


def returns_array(ctx: ModuleContext, instance: str, _seen: frozenset[str] = frozenset()) -> bool:
    """Whether calling an object of `instance` returns an array: a listed layer's does
    (`overlays/flax_nnx.py`); a class of the module's where its `__call__` (one `def`,
    `method_problem`) ends in a `return` and each of its returns calls a field of its
    own that holds such an instance (`return self.head(x)`)."""
    if is_layer(instance):
        return True
    if instance in _seen or method_problem(ctx, instance, "__call__"):
        return False
    fn = ctx.graph.functions[f"{instance}.__call__"]
    body = fn.node.body.body if type(fn.node.body) is cst.IndentedBlock else ()
    last = body[-1] if body else None
    small = last.body if type(last) is cst.SimpleStatementLine else ()
    if not fn.params or not small or type(small[-1]) is not cst.Return:
        return False
    returns = [s.node for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    me = fn.params[0]
    return all(_returns_field_call(ctx, instance, r, me, _seen | {instance}) for r in returns)


def _returns_field_call(
    ctx: ModuleContext, cls: str, node: cst.Return, me: str, seen: frozenset[str]
) -> bool:
    """`return me.f(...)`, the field `f` holding an instance whose call returns an array."""
    value = node.value
    func = value.func if type(value) is cst.Call else None
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    if func.value.value != me:
        return False
    held = field_instance(ctx, cls, func.attr.value)
    return held is not None and returns_array(ctx, held, seen)


def instance_methods(ctx: ModuleContext, instance: str) -> list[Function]:
    """The methods a call of an object of `instance` may run: its class's but
    `__init__`, those of the classes its fields hold, and the factory closures they hold
    (none for a listed layer)."""
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
                    closure = field_closure(ctx, cls, field) if inner is None else None
                    if closure is not None:
                        found[closure.qualname] = closure
    return list(found.values())


def _self_attributes(fn: Function) -> set[str]:
    """The attributes a method reads of its first parameter (`self.layer1`)."""
    me = fn.params[0] if fn.params else ""
    return {
        node.attr.value
        for node in scope_nodes(fn.node.body)
        if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == me
    }
