"""The arguments of a call of a compiled function whose objects its body sees as they are.

A jitted function runs on tracers of its arguments' array leaves (and not at all on a
cache hit), so it puts no array leaf of an argument anywhere. Its other leaves are the
caller's very objects: the body may store one into another, or keep it (the jit's cache
keeps static arguments; the body may store into a global). An object that is no pytree
carries the buffers it holds with it: after `holder.w = params`, a call
`peek(holder, box)` whose body runs `box.kept = holder.w` leaves `box` holding the
buffer of `params` (tests/hazards h1260). `as_is` gives those arguments:

- `jax.jit`: the static ones (`static_argnums`, `static_argnames`, as literals, by the
  function's parameters where it is seen), `self` of a jitted method
  (`core/jitted_methods.py`), and every other argument but those the value model proves
  data (as below), a tuple, list or dict of JAX arrays, or a new batch of a loop
  (`loop_batches.fresh_items`: arrays, in tuples): every leaf must be an array or
  a number, or the call raises, but a pytree node's aux data reaches the body as the
  caller's very objects (`overlays.jax.AUX_FREE_CONTAINERS`: a `flax.struct` field with
  `pytree_node=False`, an `eqx.field(static=True)`, a registered class's aux data), and
  a body may store what one holds on another (tests/hazards h1648-h1650);
- a jit that makes every non-array leaf static (`overlays.NON_ARRAYS_STATIC`,
  `eqx.filter_jit`): every argument but those the value model proves an array or an
  immutable value holding no buffer (a number, a string, a dtype, a shape, None).

Any other spelling (a static option that is no literal, `*args` or `**kwargs` at the
call, a static option of a function not seen) gives every argument; `nnx.jit`, which
writes module state back into its arguments, is not read here (None).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.core.jitted import Jitted, literal_names
from autoopt.analysis.facts.loop_batches import fresh_items
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Values that are one array or hold no buffer and cannot be changed in place.
_DATA = frozenset(
    {Kind.ARRAY, Kind.HOST_ARRAY, Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE}
)


def as_is(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, jitted: Jitted, bound: bool
) -> list[cst.BaseExpression] | None:
    """The expressions of `call` (of `jitted`; `bound`: a method, its receiver static)
    whose objects the compiled body sees as the caller's; None for a jit not read here."""
    receiver = [call.func.value] if bound and type(call.func) is cst.Attribute else []
    if jitted.transform in overlays.NON_ARRAYS_STATIC:
        data = model(ctx)
        return receiver + [
            a.value for a in call.args if data.value_of(stmt, a.value).kind not in _DATA
        ]
    if jitted.transform != "jax.jit":
        return None
    static = _static_arguments(jitted, call, bound)
    if static is None:
        return receiver + [a.value for a in call.args]
    static_ids = {id(e) for e in static}
    return receiver + [
        a.value for a in call.args if id(a.value) in static_ids or not _aux_free(ctx, stmt, a.value)
    ]


def _aux_free(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> bool:
    """`expr`'s pytree has no node with aux data but the string keys of a dict: data, a
    tuple, list or dict of JAX arrays (`overlays.jax.AUX_FREE_CONTAINERS`), or a new
    batch of a loop (`loop_batches.fresh_items`: arrays, in tuples)."""
    value = model(ctx).value_of(stmt, expr)
    if value.kind in _DATA or value.container in jax_api.AUX_FREE_CONTAINERS:
        return True
    if type(expr) is not cst.Name:
        return False
    defs = ctx.graph.reaching_defs(stmt, expr.value)
    return bool(defs) and all(fresh_items(ctx, d, expr.value) for d in defs)


def _static_arguments(jitted: Jitted, call: cst.Call, bound: bool) -> list | None:
    """The arguments `jax.jit` makes static at `call`, or None where unknown."""
    numbers = _literal_ints(jitted.options.get("static_argnums"))
    names = literal_names(jitted.options.get("static_argnames", cst.Tuple([])))
    if numbers is None or names is None or any(a.star for a in call.args):
        return None
    params = list(jitted.function.positional) if jitted.function is not None else []
    if (numbers or names) and jitted.function is None:
        return None
    static = set(names) | {params[i] for i in numbers if i < len(params)}
    found = []
    positional = [a for a in call.args if a.keyword is None]
    for index, arg in enumerate(positional, start=int(bound)):
        if index in numbers or (index < len(params) and params[index] in static):
            found.append(arg.value)
    found += [a.value for a in call.args if a.keyword is not None and a.keyword.value in static]
    return found


def _literal_ints(expr: cst.BaseExpression | None) -> set[int] | None:
    """`0`, `(0, 2)`: the positions a literal names (empty when absent), else None."""
    if expr is None:
        return set()
    if type(expr) is cst.Integer:
        return {int(expr.value)}
    if type(expr) is cst.Tuple or type(expr) is cst.List:
        values = [e.value for e in expr.elements]
        if all(type(v) is cst.Integer for v in values):
            return {int(v.value) for v in values}  # type: ignore[attr-defined]  # Integer
    return None
