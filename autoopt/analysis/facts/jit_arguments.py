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
  data (as below), or a pytree with no aux data by how it is bound (`facts/aux_free.py`:
  a tuple, list or dict of JAX arrays, a new batch of a loop, a named tuple of the
  module, haiku's `init`, an optax state, a `jax.jit` output built of such): every
  leaf must be an array or a number, or the call raises, but a pytree node's aux data
  reaches the body as the caller's very objects (`overlays.jax.AUX_FREE_CONTAINERS`: a
  `flax.struct` field with `pytree_node=False`, an `eqx.field(static=True)`, a
  registered class's aux data), and a body may store what one holds on another
  (tests/hazards h1648-h1650, h1587);
- a jit that makes every non-array leaf static (`overlays.NON_ARRAYS_STATIC`,
  `eqx.filter_jit`): every argument but those the value model proves an array or an
  immutable value holding no buffer (a number, a string, a dtype, a shape, None), and,
  for a jit that hands its function new containers (`equinox.REBUILT_ARGUMENTS`), a
  name proven to hold an equinox module whose every other leaf is such a value
  (`facts/inert_modules.py`): the body sees none of its objects.

- `nnx.jit` (`overlays/flax_nnx.py`, `STATICS_AS_IS`): its static arguments, and every
  other argument but data (as `filter_jit`'s): a graph object's attributes that are
  neither variables nor graph objects are the caller's very objects in the body (h1584),
  and the graph the body leaves is written back, a variable moved from one argument to
  another included (h1585).

Any other spelling (a static option that is no literal, `*args` or `**kwargs` at the
call, a static option of a function not seen) gives every argument.

`moved_only` gives, of an `nnx.jit` call given no static argument, the arguments but
data where each is a name proven to hold a graph object keeping nothing that carries a
buffer outside its variables (`facts/nnx_static_parts.py`): the body then sees none of
the caller's objects that hold a buffer and keeps none, and can only move variables
and graph objects among those arguments (each variable holding a new buffer after the
call).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.core.jitted import Jitted, literal_ints, literal_names
from autoopt.analysis.facts.aux_free import DATA, aux_free
from autoopt.analysis.facts.data_fields import data_field
from autoopt.analysis.facts.inert_modules import inert_name
from autoopt.analysis.facts.nnx_static_parts import static_problem
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.values.model import model

#: Jits whose static arguments are named by `jax.jit`'s options.
_STATIC_OPTION_JITS = frozenset({"jax.jit"}) | nnx_api.STATICS_AS_IS


def as_is(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, jitted: Jitted, bound: bool
) -> list[cst.BaseExpression] | None:
    """The expressions of `call` (of `jitted`; `bound`: a method, its receiver static)
    whose objects the compiled body sees as the caller's; None for a jit not read here."""
    receiver = [call.func.value] if bound and type(call.func) is cst.Attribute else []
    if jitted.transform in overlays.NON_ARRAYS_STATIC:
        rebuilt = jitted.transform in eqx_api.REBUILT_ARGUMENTS
        inert = {id(a.value) for a in call.args if rebuilt and _inert_module(ctx, stmt, a)}
        return receiver + [e for e in _not_data(ctx, stmt, call.args) if id(e) not in inert]
    if jitted.transform not in _STATIC_OPTION_JITS:
        return None
    static = _static_arguments(jitted, call, bound)
    if static is None:
        return receiver + [a.value for a in call.args]
    if jitted.transform in nnx_api.STATICS_AS_IS:
        rest = [a for a in call.args if all(a.value is not s for s in static)]
        return receiver + static + _not_data(ctx, stmt, rest)
    static_ids = {id(e) for e in static}
    return receiver + [
        a.value for a in call.args if id(a.value) in static_ids or not aux_free(ctx, stmt, a.value)
    ]


def moved_only(ctx: ModuleContext, stmt: Stmt, call: cst.Call, jitted: Jitted) -> list[str] | None:
    """The names an `nnx.jit` call (`STATICS_AS_IS`) is given, but data, where it is given
    no static argument and each of them holds a graph object proven to keep nothing
    carrying a buffer outside its variables; None otherwise."""
    if jitted.transform not in nnx_api.STATICS_AS_IS or moved_problem(ctx, stmt, call, jitted):
        return None
    return [e.value for e in _not_data(ctx, stmt, call.args) if type(e) is cst.Name]


def moved_problem(ctx: ModuleContext, stmt: Stmt, call: cst.Call, jitted: Jitted) -> str:
    """Why the body of an `nnx.jit` call may see the caller's objects holding buffers (a
    static argument; a graph object not proven to keep nothing carrying one outside its
    variables: `nnx_static_parts.static_problem`), "" where it may not."""
    static = _static_arguments(jitted, call, False)
    if static is None:
        return "its static arguments are not read"
    if static:
        return f"`{ctx.code(static[0])}` is static, the caller's object in the body"
    for expr in _not_data(ctx, stmt, call.args):
        if type(expr) is not cst.Name:
            return f"`{ctx.code(expr)}` is not a name bound to a graph object"
        problem = static_problem(ctx, stmt, expr.value)
        if problem:
            return problem
    return ""


def _not_data(ctx: ModuleContext, stmt: Stmt, args: Sequence[cst.Arg]) -> list[cst.BaseExpression]:
    """The arguments the value model does not prove data, nor a plain object's data field
    (`facts/data_fields.py`)."""
    data = model(ctx)
    return [
        a.value
        for a in args
        if a.star
        or (
            data.value_of(stmt, a.value).kind not in DATA
            and not data_field(ctx, stmt, a.value, DATA)
        )
    ]


def _inert_module(ctx: ModuleContext, stmt: Stmt, arg: cst.Arg) -> bool:
    """A whole argument, a name proven to hold an inert equinox module."""
    value = arg.value
    return not arg.star and type(value) is cst.Name and inert_name(ctx, stmt, value.value)


def _static_arguments(jitted: Jitted, call: cst.Call, bound: bool) -> list | None:
    """The arguments `jax.jit` makes static at `call`, or None where unknown."""
    numbers = literal_ints(jitted.options.get("static_argnums"))
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
