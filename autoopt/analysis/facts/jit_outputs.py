"""Which parts of what a framework jit returns are new buffers.

`eqx.filter_jit` returns its function's array leaves as outputs of the compiled
computation, new buffers even where the function returns an argument or a global as it
is; every other leaf (a number, a function, an object holding arrays) comes back as the
trace made it (`overlays.equinox.FRESH_ARRAY_OUTPUTS`). So in

    @eqx.filter_jit
    def make_step(model, opt_state, batch):
        loss, grads = eqx.filter_value_and_grad(loss_fn)(model, batch)
        ...
        return loss, model, opt_state

    loss, model, opt_state = make_step(model, opt_state, batch)

`loss` holds new buffers only: every `return` of the function (a function of this
module, compiled by the decorator or a wrapper bound once, `core/jitted.py`) is a tuple
of as many elements as the target, and its first element is, by the value model, a JAX
array or a pytree of arrays (`analysis/values/model.py`), so no leaf of it is static.
`model` stays unknown: its static leaves may be objects an argument holds. Likewise a
call bound whole (`acc = compute_accuracy(model, x, y)`, or given on as an argument) holds
new buffers only where every `return` of the function is, by the value model, a JAX array
or a pytree of arrays (`fresh_output`).

`nnx.jit` returns array outputs in new buffers too (`overlays.flax_nnx.NEW_ARRAY_OUTPUTS`),
but a graph object the call was given comes back as the very object, wherever a pytree
holds it: only a `return` the value model proves one JAX array counts there (`loss` of
`nnx.value_and_grad(loss_fn)(model, x)`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: The jits read here -> the kinds of a returned value whose leaves are all new buffers.
_FRESH_KINDS = {
    **dict.fromkeys(eqx_api.FRESH_ARRAY_OUTPUTS, (Kind.ARRAY, Kind.PYTREE)),
    **dict.fromkeys(nnx_api.NEW_ARRAY_OUTPUTS, (Kind.ARRAY,)),
}


def fresh_output(ctx: ModuleContext, call: cst.Call) -> bool:
    """Whether the whole value `call` returns holds new buffers only."""
    returns, kinds = _returns(ctx, call)
    values = model(ctx)
    return bool(returns) and all(
        s.node.value is not None and values.value_of(s, s.node.value).kind in kinds  # type: ignore[attr-defined]  # a Return statement
        for s in returns
    )


def fresh_positions(ctx: ModuleContext, call: cst.Call, count: int) -> frozenset[int]:
    """The positions of the `count`-tuple `call` returns that hold new buffers only."""
    returns, kinds = _returns(ctx, call)
    if not returns:
        return frozenset()
    fresh = set(range(count))
    values = model(ctx)
    for stmt in returns:
        value = stmt.node.value  # type: ignore[attr-defined]  # a Return statement
        if type(value) is not cst.Tuple or len(value.elements) != count:
            return frozenset()
        for i, element in enumerate(value.elements):
            if type(element) is cst.StarredElement:
                return frozenset()
            if values.value_of(stmt, element.value).kind not in kinds:
                fresh.discard(i)
    return frozenset(fresh)


def _returns(ctx: ModuleContext, call: cst.Call) -> tuple[list[Stmt], tuple[Kind, ...]]:
    """The `return` statements of the function of this module that `call` runs through a
    jit returning new array buffers, and the kinds of a returned value that holds only
    those (`_FRESH_KINDS`); none for anything else."""
    if type(call.func) is not cst.Name:
        return [], ()
    compiled = [
        j
        for j in jitted_callables(ctx, frameworks=True)
        if j.name == call.func.value and j.transform in _FRESH_KINDS
    ]
    fn = compiled[0].function if len(compiled) == 1 else None
    if fn is None or fn.is_generator or fn.node.asynchronous is not None:
        return [], ()
    returns = [s for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    return returns, _FRESH_KINDS[compiled[0].transform]
