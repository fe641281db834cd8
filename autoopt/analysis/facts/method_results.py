"""Calls of a method of an object of a class of this module that return new buffers only.

`fresh_method_result` holds of `obj.m(...)`, read at `at`, when

- `obj` is a name holding, where it is read, an object an equinox module class `C` of
  this module built, or one with its very structure (`facts/module_structure.py`: the
  output of a step that applies updates to it), so that its fields hold objects of the
  classes `C`'s `__init__` stores in them (`constructors.init_fields`; an equinox module
  is frozen once built), and `C` answers no attribute read with code of its own;
- `m` is a function `C`'s body defines (not a base's), undecorated (no `staticmethod`,
  no `property`), neither a generator nor a coroutine, with no function nested in it,
  binding none of its parameters again; and no statement of the module stores an
  attribute named `m` (an instance's own attribute would hide the method:
  `unkept_arguments.stored_anywhere`);
- every `return` in it gives a value made right there, which nothing but the caller then
  holds (a value bound to a name first may also be stored elsewhere; a `return` of
  nothing, or the end of the body, gives None, which holds no buffer):
  - `self.n(...)`, a method of `C` proven the same way (`self` the first parameter);
  - `self.f(x, ...)`, `f` a field holding a layer whose call `overlays/equinox.py`
    lists in `FRESH_CALLS`, given JAX arrays only by the value model (an object of the
    program's could answer `weight @ x` through `__rmatmul__` with an array it holds);
  - `jax.vmap(self.f)(...)` of such a field, given no option but those `FRESH_MAPS`
    lists (`overlays/jax.py`): the layer runs on tracers of the arguments, and what it
    computes comes back new (`jax.vmap(lambda x: x)(xs)` would be `xs`).

A field holds such a layer where every value `__init__` stores in it is a call of that
layer's constructor (`unkept_arguments.equinox_layer`: written in place, given for each
option `FRESH_CALLS` names nothing or a function of JAX, not a function of the program's,
which may return an array it holds), and no other statement of the module stores an
attribute of that name (`unkept_arguments.stored_elsewhere`).

What the call keeps of its arguments, or stores in the object, is another premise
(`aliases.Sharing`, `_link_retention`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.facts.attribute_stores import stored_anywhere, stored_elsewhere
from autoopt.analysis.facts.constructors import field_value, init_fields
from autoopt.analysis.facts.module_structure import class_methods, structure_class
from autoopt.analysis.facts.plain_layers import equinox_layer
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_MAX_DEPTH = 4


def fresh_method_result(ctx: ModuleContext, at: Stmt, call: cst.Call) -> bool:
    """Whether `call`, read at `at`, is `obj.m(...)` of a method of the class of `obj`
    returning new buffers only (module docstring)."""
    func = call.func
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    if func.attr.value not in ctx.per_module(class_methods):
        return False  # no class of the module defines it: nothing to read
    cls = structure_class(ctx, at, func.value.value)
    return cls is not None and _fresh_method(ctx, cls, func.attr.value, frozenset())


def _fresh_method(ctx: ModuleContext, cls: str, name: str, seen: frozenset[str]) -> bool:
    """Whether method `name` of `cls`, called on an object `cls` built, returns new
    buffers only at every `return`."""
    fn = ctx.graph.functions.get(f"{cls}.{name}")
    if fn is None or fn.scope != cls or fn.qualname in seen or len(seen) >= _MAX_DEPTH:
        return False
    if not _plain_method(ctx, fn) or stored_anywhere(ctx, name):
        return False
    seen = seen | {fn.qualname}
    returns = [s for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    return all(_fresh_return(ctx, cls, fn, s, seen) for s in returns)


def _plain_method(ctx: ModuleContext, fn: Function) -> bool:
    """Undecorated, neither a generator nor a coroutine, no function nested in it, and
    none of its parameters bound again (its first stays the object)."""
    node = fn.node
    if node.decorators or node.asynchronous is not None or fn.is_generator or not fn.params:
        return False
    if any(q.startswith(f"{fn.qualname}.") for q in ctx.graph.functions):
        return False
    params = set(fn.params) | fn.globals | fn.nonlocals
    return not any(params & s.defs for s in ctx.graph.scope_stmts(fn.qualname))


def _fresh_return(
    ctx: ModuleContext, cls: str, fn: Function, stmt: Stmt, seen: frozenset[str]
) -> bool:
    value = stmt.node.value  # type: ignore[attr-defined]  # a Return statement
    if value is None:
        return True  # None: no buffer
    if type(value) is not cst.Call or any(a.star for a in value.args):
        return False
    func = value.func
    if type(func) is cst.Call:  # `jax.vmap(self.f)(x)`
        options = jax_api.FRESH_MAPS.get(ctx.qualify(func.func) or "")
        if options is None or not func.args or func.args[0].keyword is not None:
            return False
        rest = func.args[1:]
        if any(a.keyword is None or a.keyword.value not in options for a in rest):
            return False
        return _layer_field(ctx, cls, fn, func.args[0].value)
    if not _own_attribute(fn, func):
        return False
    name = func.attr.value  # type: ignore[attr-defined]  # checked by `_own_attribute`
    if f"{cls}.{name}" in ctx.graph.functions:
        return _fresh_method(ctx, cls, name, seen)  # `self._sample(ts, latent)`
    values = model(ctx)
    arrays = all(values.value_of(stmt, a.value).kind is Kind.ARRAY for a in value.args)
    return arrays and _layer_field(ctx, cls, fn, func)


def _own_attribute(fn: Function, expr: cst.BaseExpression) -> bool:
    """`self.x`, `self` the method's first parameter."""
    if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
        return False
    return expr.value.value == fn.params[0]


def _layer_field(ctx: ModuleContext, cls: str, fn: Function, expr: cst.BaseExpression) -> bool:
    """`self.f`, a field of `cls` every store of which builds a layer `FRESH_CALLS`
    lists, given for the options its call runs nothing or a function of JAX."""
    if not _own_attribute(fn, expr):
        return False
    name = expr.attr.value  # type: ignore[attr-defined]  # checked by `_own_attribute`
    if f"{cls}.{name}" in ctx.graph.functions:
        return False  # a method, not a field
    found = init_fields(ctx, cls)
    if found is None:
        return False
    stores = [s for s in found[1] if _stored_field(s) == name]
    if not stores or stored_elsewhere(ctx, name, found[1]):
        return False
    return all(equinox_layer(ctx, field_value(s)) is not None for s in stores)


def _stored_field(stmt: Stmt) -> str | None:
    node = stmt.node
    assert type(node) is cst.Assign  # `init_fields` reads `self.f = value` only
    target = node.targets[0].target
    assert type(target) is cst.Attribute
    return target.attr.value
