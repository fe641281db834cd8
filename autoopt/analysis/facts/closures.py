"""Closures a factory of the module returns: `mse_loss = make_mse_loss(xs, ys)`.

A module-level name bound once, outside loops, to a call of a plain module function (a
factory) holds the function the factory returns when the factory ends in its only
`return`, which names a function defined once in its body, or JAX transforms of one
(`return jax.jit(mse_loss)`). Calling the name runs that nested function's code:
`analysis/facts/purity.py` follows it, and `analysis/facts/summaries.py` judges what it
reads from outside (the factory's variables, the module's globals) as for any function.
A factory with another shape (a branch that returns, a returned lambda, a decorator, a
method) is not followed.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function


def module_binding(ctx: ModuleContext, name: str) -> cst.BaseExpression | None:
    """The value of the module-level `name` where one assignment, outside loops, binds it."""
    defs = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    if len(defs) != 1 or type(defs[0].node) is not cst.Assign or defs[0].loops:
        return None
    node = defs[0].node
    if len(node.targets) != 1 or type(node.targets[0].target) is not cst.Name:
        return None
    return node.value


def unwrapped(ctx: ModuleContext, value: cst.BaseExpression) -> cst.BaseExpression:
    """`value` without the JAX transforms around it: `f` in `jax.jit(jax.grad(f))`."""
    while type(value) is cst.Call and ctx.qualify(value.func) in overlays.TRACING_TRANSFORMS:
        if not value.args or value.args[0].keyword is not None or value.args[0].star:
            return value
        value = value.args[0].value
    return value


def factory_closure(
    ctx: ModuleContext, name: str, _seen: frozenset[str] = frozenset()
) -> Function | None:
    """The nested function that the module-level `name` holds: bound once to a factory's
    call, or to JAX transforms of one or of another such name (`value_and_grad_fn =
    jax.value_and_grad(mse_loss)`)."""
    value = module_binding(ctx, name)
    if value is None or name in _seen:
        return None
    inner = unwrapped(ctx, value)
    if type(inner) is cst.Name and inner is not value:
        return factory_closure(ctx, inner.value, _seen | {name})
    if type(inner) is not cst.Call or type(inner.func) is not cst.Name:
        return None
    factory = ctx.graph.resolve_function(inner.func.value, MODULE)
    return returned_function(ctx, factory) if factory is not None else None


def returned_function(ctx: ModuleContext, factory: Function) -> Function | None:
    """The nested function `factory` returns, where its last statement, its only
    `return`, names one (under JAX transforms or not) that its body defines once."""
    node = factory.node
    if factory.is_method or node.decorators or node.asynchronous or factory.is_generator:
        return None
    stmts = ctx.graph.scope_stmts(factory.qualname)
    returns = [s.node for s in stmts if type(s.node) is cst.Return]
    last = node.body.body[-1] if type(node.body) is cst.IndentedBlock else None
    if len(returns) != 1 or type(last) is not cst.SimpleStatementLine:
        return None
    returned = last.body[-1]
    if returned is not returns[0] or type(returned) is not cst.Return or returned.value is None:
        return None
    value = unwrapped(ctx, returned.value)
    if type(value) is not cst.Name:
        return None
    binders = [s for s in stmts if value.value in s.defs]
    nested = ctx.graph.functions.get(f"{factory.qualname}.{value.value}")
    if nested is None or len(binders) != 1 or binders[0].id != nested.header:
        return None
    inside = (f for f in ctx.graph.functions.values() if _within(f, factory.qualname))
    if binders[0].loops or any(value.value in f.nonlocals for f in inside):
        return None
    return nested


def _within(fn: Function, scope: str) -> bool:
    """Whether `fn` is defined in `scope`, at any depth."""
    return fn.scope == scope or fn.scope.startswith(f"{scope}.")
