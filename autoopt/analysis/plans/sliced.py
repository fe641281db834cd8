"""Can the part of a NumPy array that a loop transfers be taken on the device instead?

`jnp.asarray(X[i : i + B])` in a loop copies a part of `X` on every iteration. Where `X`
does not change in the loop (AO301's invariance premises, asked of `X` alone), it can go
to the device once, whole, and the loop slice it there: `X_dev[i : i + B]`. The same
parts come out, with the same values and dtype, where:

- `X` is a NumPy array (`analysis/values/placement.py`): a list of arrays or a value of
  unknown kind is never taken;
- the transfer is `jnp.asarray`, `jnp.array` or `jax.device_put` of the part alone (no
  dtype, no device), or the part is passed straight to a jitted function: each converts a
  NumPy array as it converts the whole (x64 off: float64 and int64 become float32 and
  int32, element by element; never weakly typed), and the result was a JAX array already,
  so the code after it sees the same kind of value;
- every element of the index is a slice whose bounds are Python ints or absent
  (`analysis/values/ints.py`), with no step: a JAX array clips such bounds to its length
  as NumPy does. An integer index (`X[i]`) or an array of indices (`X[idx]`) is taken
  only as unsafe: NumPy raises for an index out of range, where a JAX array clamps it
  and returns the last row.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.values.ints import is_int
from autoopt.analysis.values.placement import Place, Placement
from autoopt.model import RequireImport

_TRANSFERS = ("jax.numpy.asarray", "jax.numpy.array", "jax.device_put")


@dataclass(frozen=True)
class SlicedIndex:
    """A part of a NumPy array that the device can take; `doubt` says why the same index
    may not pick the same part there ("" where it is proven to)."""

    doubt: str = ""


def sliced_index(
    ctx: ModuleContext,
    places: Placement,
    stmt: Stmt,
    expr: cst.BaseExpression,
    source: cst.Subscript,
) -> tuple[cst.Name, SlicedIndex] | None:
    """`X` and the part `source` (`X[...]`, transferred by `expr`) takes, where the device
    can take it; None where it cannot."""
    if type(source.value) is not cst.Name:
        return None
    if expr is not source and not _plain_transfer(ctx, expr, source):
        return None
    if places.place_of(stmt, source.value) is not Place.HOST:
        return None
    doubts = [_doubt(ctx, places, stmt, e.slice, source.value.value) for e in source.slice]
    if any(d is None for d in doubts):
        return None
    return source.value, SlicedIndex(next((d for d in doubts if d), ""))


def whole_transfer(
    ctx: ModuleContext, expr: cst.BaseExpression, base: cst.Name
) -> tuple[str, tuple[RequireImport, ...]]:
    """The transfer of the whole array: the one written (`jax.device_put(X)`), or
    `jnp.asarray(X)` for a part passed straight to a jitted function."""
    if type(expr) is cst.Call:
        return f"{ctx.code(expr.func)}({base.value})", ()
    jnp, imports = ctx.ref("jax.numpy")
    return f"{jnp}.asarray({base.value})", imports


def _plain_transfer(
    ctx: ModuleContext, expr: cst.BaseExpression, source: cst.BaseExpression
) -> bool:
    """`jnp.asarray(source)` and the like: one positional argument, nothing else."""
    if type(expr) is not cst.Call or not ctx.is_jax(expr.func, *_TRANSFERS):
        return False
    args = expr.args
    return (
        len(args) == 1 and args[0].value is source and args[0].keyword is None and not args[0].star
    )


def _doubt(
    ctx: ModuleContext, places: Placement, stmt: Stmt, part: cst.BaseSlice, name: str
) -> str | None:
    """ "" for a slice of Python-int bounds, the premise left open for an integer or an
    array index, None for anything else."""
    if type(part) is cst.Slice:
        ints = all(b is None or is_int(ctx, stmt, b) for b in (part.lower, part.upper))
        return "" if ints and part.step is None else None
    if type(part) is not cst.Index or part.star is not None:
        return None
    index = part.value
    if not is_int(ctx, stmt, index) and places.place_of(stmt, index) is not Place.HOST:
        return None
    return (
        f"`{ctx.code(index)}` is not proven to index within `{name}`: NumPy raises for an "
        "index out of range, where a JAX array clamps it"
    )
