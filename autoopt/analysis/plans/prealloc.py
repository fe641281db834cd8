"""Can a loop that grows an array by concatenation write into a buffer allocated
before it, and still end with exactly the array the concatenations built?

Only when the buffer's size and dtype are the result's: the loop runs a known
number of times (`for i in range(a[, b])` with no `break`, `continue` or
`return`), the growth runs once on every iteration, the accumulator starts empty
from a constructor (`jnp.zeros((0, w), dtype)`), and every step appends a known
number of rows of the accumulator's own dtype (else `jnp.concatenate` would
promote).

The `range` arguments must be plain reads (evaluated once more, just before the loop),
the loop variable (and a named start) never rebound, and the growth statement stand
directly in the loop body. A piece's rows are proven by `x[None]`, `jnp.expand_dims(x,
0)`, `x.reshape(k, ...)`, a constructor with a literal shape, or one of these combined
with a Python scalar; for `vstack`/`hstack` the proven ranks must make the join a row
concatenation. The buffer is new and only the accumulator holds it, so donating it
deletes nothing else; the row writer raises `TypeError` where `concatenate` would, when
a piece's other dimensions differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.plans.carry import unstable_carry
from autoopt.analysis.values import ints
from autoopt.analysis.values.array_type import ArrayType, dtype_text
from autoopt.analysis.values.shapes import (
    array_facts,
    assigned_value,
    int_literal,
    is_builtin,
    is_range,
    stable_in_loop,
)

_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


@dataclass(frozen=True)
class Prealloc:
    """How to size the buffer and where each step writes."""

    size: str  # code: the rows the loop appends, `len(range(n))`
    start: str  # code: the first row one iteration writes, `i`


def prealloc(
    ctx: ModuleContext, loop: Loop, stmt: Stmt, acc: str, piece: cst.BaseExpression, join: str
) -> Prealloc | str:
    """The plan for growth `stmt` (`join` is "concatenate", "vstack" or "hstack"),
    or why there is none."""
    counted = _counted(ctx, loop)
    if isinstance(counted, str):
        return counted
    if not _every_iteration(loop, stmt):
        return f"`{acc}` does not grow on every iteration"
    start = _empty_start(ctx, loop, stmt, acc)
    if start is None:
        return f"`{acc}` is not a fresh empty array of known dtype (`jnp.zeros((0, n), dtype)`)"
    code = ctx.code(piece)
    step = array_facts(ctx, stmt, piece)
    if not step.rows:
        return f"cannot prove how many rows `{code}` has"
    if step.dtype is None:
        return f"cannot prove `{code}` has the dtype of `{acc}` ({dtype_text(start.dtype)})"
    if step.dtype != start.dtype:
        promoted = f"{dtype_text(step.dtype)} and `{acc}` {dtype_text(start.dtype)}"
        return f"`{code}` is {promoted}: concatenation promotes"
    if not _stacks_as_rows(join, start, step):
        return f"cannot prove the rank of `{code}`, which `{join}` would change"
    index, iterable = counted
    size = f"len({ctx.code(iterable)})"
    return Prealloc(_times(size, step.rows), _times(index, step.rows, atomic=" " not in index))


def _counted(ctx: ModuleContext, loop: Loop) -> tuple[str, cst.Call] | str:
    """(the iteration's number as code, the `range(...)` call) of a loop that runs
    `len(range(...))` times, or why it may not."""
    node = loop.node
    if not (type(node) is cst.For and not node.asynchronous and is_range(ctx, node.iter)):
        return "the trip count is not known: not `for i in range(...)`"
    args = node.iter.args  # type: ignore[attr-defined]  # is_range: a Call
    if not (
        type(node.target) is cst.Name
        and 1 <= len(args) <= 2
        and all(a.keyword is None and not a.star and _plain(ctx, a.value) for a in args)
        and stable_in_loop(ctx, loop.id, node.target.value)
    ):
        return "the trip count is not known: the `range` arguments or the loop variable may change"
    index = node.target.value
    offset = args[0].value if len(args) == 2 else cst.Integer("0")
    number = _minus(ctx, loop, index, offset)
    if number is None:
        return "the loop's start is neither a literal nor a name the loop leaves alone"
    exit_ = _exit(node)
    if exit_:
        return f"the loop has a `{exit_}`, so it may skip growing"
    return number, cast(cst.Call, node.iter)


def _every_iteration(loop: Loop, stmt: Stmt) -> bool:
    """`stmt` is a line of the loop's own body, not inside a nested statement: not in an
    indented block, nor in a one-line `if c: ...` (whose anchor is the `if`)."""
    anchor = stmt.anchor
    body = loop.node.body.body
    return type(anchor) is cst.SimpleStatementLine and any(anchor is line for line in body)


def _exit(loop: cst.For) -> str | None:
    """`return`, `break` or `continue` that can end an iteration of `loop` early."""
    for inner in walk(loop.body, lambda n: isinstance(n, _SCOPES)):
        if type(inner) is cst.Return:
            return "return"
    for inner in walk(loop.body, lambda n: isinstance(n, (*_SCOPES, cst.For, cst.While))):
        if type(inner) in (cst.Break, cst.Continue):
            return "break" if type(inner) is cst.Break else "continue"
    return None


def join_keeps_dtype(
    ctx: ModuleContext, loop: Loop, stmt: Stmt, acc: str, pieces: tuple[cst.BaseExpression, ...]
) -> str:
    """Why joining the pieces once could give other values or another dtype than
    joining them step by step, or "".

    Step by step, each piece is converted to the accumulator's dtype of that moment:
    when a later piece promotes it (a float32 row onto bfloat16), the earlier ones were
    already rounded, while one join promotes them all at once. So every piece must be
    proven to promote with the accumulator's dtype on entry to that same dtype
    (`overlays/jax.py`'s `ABSORBS`), which then never changes."""
    start = _start(ctx, loop, stmt, acc)
    absorbed = jax_api.ABSORBS.get(start.dtype or "", ()) if start else ()
    for piece in pieces:
        if array_facts(ctx, stmt, piece).dtype in absorbed:
            continue
        if len(pieces) == 1 and _one_type(ctx, loop, stmt, piece):
            continue
        dtype = f" ({dtype_text(start.dtype)})" if start and start.dtype else ""
        return (
            f"cannot prove `{ctx.code(piece)}` keeps the dtype of `{acc}`{dtype} or has one "
            f"dtype on every iteration: a piece that promotes `{acc}` part-way would leave "
            "the earlier pieces unrounded when joined at once"
        )
    return ""


def _one_type(ctx: ModuleContext, loop: Loop, stmt: Stmt, piece: cst.BaseExpression) -> bool:
    """Whether the piece has the same dtype (and weak type) on every iteration: it is
    built by JAX functions, operators and subscripts from names the loop leaves alone,
    Python ints (`range` loop variables, bounded counters: `values/ints.py`), and carried
    names that keep their type (`plans/carry.py`).
    Then the accumulator's dtype can change only once, at the first step, and a single
    join converts every element the same way."""
    if not all(_typed_node(ctx, n) for n in walk(piece)):
        return False
    written = ctx.graph.written_in_loop(loop.id)
    names = {n.value for n in read_names(piece)} & written
    node = loop.node
    if type(node) is cst.For and type(node.target) is cst.Name and node.target.value in names:
        if not is_range(ctx, node.iter):
            return False
        names.discard(node.target.value)
    names = {n for n in names if ints.bounds(ctx, stmt, cst.Name(n), {}) is None}
    body = ctx.graph.loop_stmts(loop.id)
    return not unstable_carry(ctx, body, tuple(sorted(names)))


_TYPED = (
    cst.Name, cst.Attribute, cst.Subscript, cst.SubscriptElement, cst.Index, cst.Slice,
    cst.BinaryOperation, cst.UnaryOperation, cst.Integer, cst.Float, cst.Tuple, cst.Element,
    cst.Arg, cst.Comma, cst.LeftParen, cst.RightParen, cst.LeftSquareBracket,
    cst.RightSquareBracket, cst.Colon, cst.Call,
)  # fmt: skip


def _typed_node(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """A node whose result dtype follows from its operands' dtypes alone: no Python
    function or method that could pick a dtype by value, no `jnp.asarray` of host data."""
    if type(node) is cst.Call:
        qual = ctx.qualify(node.func) or ""
        return qual.startswith("jax.") and qual.rsplit(".", 1)[-1] not in _FROM_DATA
    if isinstance(node, (cst.BaseBinaryOp, cst.BaseUnaryOp, cst.BaseParenthesizableWhitespace)):
        return True
    return type(node) in _TYPED


#: JAX constructors whose dtype follows the values of host data handed to them.
_FROM_DATA = frozenset({"asarray", "array", "device_put", "from_dlpack"})


def _empty_start(ctx: ModuleContext, loop: Loop, stmt: Stmt, acc: str) -> ArrayType | None:
    """The facts of `acc` on entry to the loop when it is an empty array of known rank
    and dtype, defined once, just for this loop."""
    facts = _start(ctx, loop, stmt, acc)
    return facts if facts and facts.rows == 0 and facts.ndim and facts.dtype else None


def _start(ctx: ModuleContext, loop: Loop, stmt: Stmt, acc: str) -> ArrayType | None:
    """The facts of `acc` on entry to the loop, defined once, just for this loop."""
    graph = ctx.graph
    header = graph.stmts[loop.header]
    defs = [d for d in graph.reaching_defs(stmt, acc) if d is not stmt]
    if len(defs) != 1 or defs[0].loops != loop.loops or not graph.dominates(defs[0], header):
        return None
    value = assigned_value(defs[0], acc)
    return array_facts(ctx, defs[0], value) if value is not None else None


def _stacks_as_rows(join: str, start: ArrayType, step: ArrayType) -> bool:
    """Whether the join is a concatenation along axis 0 for these ranks: `vstack`
    promotes 1-D arrays to rows, `hstack` joins along axis 1 above 1-D."""
    if join == "vstack":
        return start.ndim is not None and start.ndim >= 2 and (step.ndim or 0) >= 2
    if join == "hstack":
        return start.ndim == 1 and step.ndim == 1
    return True


def _plain(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Reads only (names, literals, attributes, indexing, arithmetic, `len(x)`): safe
    to evaluate once more just before the loop."""
    if type(expr) in (cst.Name, cst.Integer):
        return True
    if type(expr) is cst.Attribute:
        return _plain(ctx, expr.value)
    if type(expr) is cst.Subscript:
        return _plain(ctx, expr.value) and all(
            type(e.slice) is cst.Index and _plain(ctx, e.slice.value) for e in expr.slice
        )
    if type(expr) is cst.BinaryOperation:
        return _plain(ctx, expr.left) and _plain(ctx, expr.right)
    if type(expr) is cst.UnaryOperation:
        return _plain(ctx, expr.expression)
    return (
        type(expr) is cst.Call
        and is_builtin(ctx, expr.func, "len")
        and len(expr.args) == 1
        and _plain(ctx, expr.args[0].value)
    )


def _minus(ctx: ModuleContext, loop: Loop, index: str, offset: cst.BaseExpression) -> str | None:
    """`i - a`, the iteration's number, for a literal `a` or a name the loop leaves alone."""
    value = int_literal(offset)
    if value is not None:
        return index if value == 0 else f"{index} {'-' if value > 0 else '+'} {abs(value)}"
    name = offset.value if type(offset) is cst.Name else index
    if name != index and stable_in_loop(ctx, loop.id, name):
        return f"{index} - {name}"
    return None


def _times(code: str, rows: int, atomic: bool = True) -> str:
    if rows == 1:
        return code
    return f"{code} * {rows}" if atomic else f"({code}) * {rows}"
