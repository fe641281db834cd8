"""The arguments of a call of a compiled function whose objects its body sees as they are.

A jitted function runs on tracers of its arguments' array leaves (and not at all on a
cache hit), so it puts no array leaf of an argument anywhere. Its other leaves are the
caller's very objects: the body may store one into another, or keep it (the jit's cache
keeps static arguments; the body may store into a global). An object that is no pytree
carries the buffers it holds with it: after `holder.w = params`, a call
`peek(holder, box)` whose body runs `box.kept = holder.w` leaves `box` holding the
buffer of `params` (tests/hazards h1260). `as_is` gives those arguments:

- `jax.jit`: the static ones (`static_argnums`, `static_argnames`, as literals, by the
  function's parameters where it is seen), and `self` of a jitted method
  (`core/jitted_methods.py`); every other leaf must be an array or a number, or the
  call raises;
- a jit that makes every non-array leaf static (`overlays.NON_ARRAYS_STATIC`,
  `eqx.filter_jit`): every argument but those the value model proves an array or an
  immutable value holding no buffer (a number, a string, a dtype, a shape, None), and,
  for a jit that hands its function new containers (`equinox.REBUILT_ARGUMENTS`), a
  name proven to hold an equinox module whose every other leaf is such a value
  (`facts/inert_modules.py`): the body sees none of its objects.

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
from autoopt.analysis.facts.inert_modules import inert_name
from autoopt.analysis.overlays import equinox as eqx_api
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
        rebuilt = jitted.transform in eqx_api.REBUILT_ARGUMENTS
        return receiver + [
            a.value
            for a in call.args
            if data.value_of(stmt, a.value).kind not in _DATA
            and not (rebuilt and _inert_module(ctx, stmt, a))
        ]
    if jitted.transform != "jax.jit":
        return None
    static = _static_arguments(jitted, call, bound)
    return receiver + (static if static is not None else [a.value for a in call.args])


def _inert_module(ctx: ModuleContext, stmt: Stmt, arg: cst.Arg) -> bool:
    """A whole argument, a name proven to hold an inert equinox module."""
    value = arg.value
    return not arg.star and type(value) is cst.Name and inert_name(ctx, stmt, value.value)


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
