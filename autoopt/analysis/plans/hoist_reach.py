"""Can a transfer in a loop be evaluated once before the loop, where the original may not
evaluate it at all?

Hoisted, `jnp.asarray(x)` runs before the loop every time the loop is reached. The
original may never run it: it sits under a condition (`if x is not None:`, the right of
`and`/`or`, one side of `a if c else b`), in a `try:` body whose handlers see what it
raises, in a comprehension or lambda, after a `break`/`continue`/`return`/`raise` that
may skip it or a `yield` after which the consumer may stop, or in a loop that may run
zero times. The hoisted transfer is then an evaluation the original does not make, and
it may raise (`jnp.asarray(None)`, a ragged list). It is harmless only where it is
proven not to raise (AO301's transfers; AO102 asks `skipped` of a jit it builds):

- its operand is, before the loop, a NumPy array or a JAX array (`analysis/values/`),
  and every other argument reads only module names and literals (`dtype=jnp.float16`);
- or it runs on the first iteration of every loop from the hoisting loop down to it,
  with nothing before it that may skip it, and each of those loops is proven to run at
  least once: `while True:`, a non-empty list or tuple literal, or `range(...)` whose
  bounds are proven (`analysis/values/ints.py`) to give at least one number.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.values.ints import bounds, builtin
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_ARRAYS = (Kind.ARRAY, Kind.HOST_ARRAY)
_LITERALS = ("None", "True", "False")
_JUMPS = (cst.Break, cst.Continue, cst.Return, cst.Raise, cst.Yield)
_DEFERRED = {
    cst.Lambda: "a lambda",
    cst.ListComp: "a comprehension",
    cst.SetComp: "a comprehension",
    cst.DictComp: "a comprehension",
    cst.GeneratorExp: "a generator expression",
}


def hoist_doubt(
    ctx: ModuleContext,
    stmt: Stmt,
    loop: Loop,
    expr: cst.BaseExpression,
    source: cst.BaseExpression,
    constants: frozenset[str],
) -> str | None:
    """None where `expr` (transferring `source`) may move before `loop`: it cannot raise
    there, or the original runs it whenever the loop is reached; else why it may raise
    where the original does not run it. `constants` are names that hold no data."""
    if _cannot_raise(ctx, stmt, expr, source, constants):
        return None
    reason = skipped(ctx, loop, expr, f"the transfer of `{ctx.code(source)}`")
    if reason is None:
        return None
    operand = ctx.code(source)
    return (
        f"{reason}; before the loop `{operand}` may not be an array, so its transfer could "
        "fail there"
    )


def _cannot_raise(
    ctx: ModuleContext,
    stmt: Stmt,
    expr: cst.BaseExpression,
    source: cst.BaseExpression,
    constants: frozenset[str],
) -> bool:
    """`source` is an array; the other arguments are constants. Its value at `stmt` is
    its value where the loop starts: nothing in the loop rebinds it (the caller's
    premise), and the value model joins every definition that reaches it, never
    narrowing by a condition (`x is not None` leaves `x` what it was)."""
    value = model(ctx).value_of(stmt, source)
    if value.kind not in _ARRAYS or value.dtype == "object":
        return False
    others = [a.value for a in expr.args[1:]] if type(expr) is cst.Call else []
    return all(_constant(node, constants) for node in others)


def _constant(node: cst.BaseExpression, constants: frozenset[str]) -> bool:
    """Reads only `constants` (`jnp.float16`) and literals, and calls nothing."""
    if any(type(n) is cst.Call for n in walk(node)):
        return False
    return all(n.value in constants or n.value in _LITERALS for n in read_names(node))


def skipped(ctx: ModuleContext, loop: Loop, expr: cst.CSTNode, what: str) -> str | None:
    """Why the original may not evaluate `expr` once `loop` is reached, the guard nearest
    to it first (None: it does). `what` names `expr` in the reason."""
    path = ctx.ancestors(expr)
    start = next(i for i, node in enumerate(path) if node is loop.node)
    for parent, child in reversed(list(pairwise(path[start:]))):
        reason = _guard(ctx, parent, child, what)
        if reason is not None:
            return reason
    return None


def _guard(ctx: ModuleContext, parent: cst.CSTNode, child: cst.CSTNode, what: str) -> str | None:
    """Why evaluating `parent` may not evaluate its part `child` (None: it always does)."""
    if isinstance(parent, (cst.For, cst.While)):
        if child is not parent.body:
            return f"{what} runs only in the loop's `else:`"
        return _may_not_run(ctx, parent, what)
    if isinstance(parent, (cst.IndentedBlock, cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return _jump_before(ctx, parent.body, child, what)
    if isinstance(parent, (cst.If, cst.IfExp)) and child is not parent.test:
        holds = "" if child is parent.body else " is false"
        return f"{what} runs only where `{ctx.code(parent.test)}`{holds}"
    if isinstance(parent, cst.BooleanOperation) and child is parent.right:
        truth = "true" if isinstance(parent.operator, cst.And) else "false"
        return f"{what} runs only where `{ctx.code(parent.left)}` is {truth}"
    if isinstance(parent, (cst.Try, cst.TryStar)):
        return _in_try(ctx, parent, child, what)
    if isinstance(parent, cst.With) and child is parent.body:
        return f"{what} runs inside `with {ctx.code(parent.items[0].item)}:`"
    if isinstance(parent, cst.Match) and child is not parent.subject:
        line = ctx.span(parent).line
        return f"{what} runs only in a `case` of the `match` at line {line}"
    if type(parent) in _DEFERRED:
        return f"{what} runs inside {_DEFERRED[type(parent)]}, which may never run it"
    return None


def _in_try(ctx: ModuleContext, node: cst.Try | cst.TryStar, child: cst.CSTNode, what: str) -> str:
    line = ctx.span(node).line
    if child is node.body:
        return (
            f"{what} runs inside the `try:` at line {line}, whose handlers "
            "would no longer see what it raises"
        )
    return f"{what} runs only in a clause of the `try:` at line {line}"


def _jump_before(
    ctx: ModuleContext, body: Sequence[cst.CSTNode], child: cst.CSTNode, what: str
) -> str | None:
    """An earlier statement of the block that may jump past `child`."""
    for node in body:
        if node is child:
            return None
        jump = next((n for n in walk(node) if isinstance(n, _JUMPS)), None)
        if jump is not None:
            word = type(jump).__name__.lower()
            line = ctx.span(jump).line
            return f"an earlier `{word}` at line {line} may skip {what}"
    return None


def _may_not_run(ctx: ModuleContext, loop: cst.For | cst.While, what: str) -> str | None:
    """Why the loop may run zero times (None: it is proven to run at least once)."""
    line = ctx.span(loop).line
    never = f"and then {what} never runs"
    if isinstance(loop, cst.While):
        if _always_true(loop.test):
            return None
        return f"the `while` loop at line {line} may run zero times, {never}"
    if _nonempty(ctx, loop):
        return None
    return f"the loop at line {line} may run zero times (over `{ctx.code(loop.iter)}`), {never}"


def _always_true(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name):
        return test.value == "True"
    return isinstance(test, cst.Integer) and test.evaluated_value != 0


def _nonempty(ctx: ModuleContext, loop: cst.For) -> bool:
    """A list or tuple literal with an element (no `*`), or a `range` proven not empty."""
    it = loop.iter
    if isinstance(it, (cst.List, cst.Tuple)):
        elements = it.elements
        return bool(elements) and not any(isinstance(e, cst.StarredElement) for e in elements)
    if not isinstance(it, cst.Call) or not isinstance(it.func, cst.Name):
        return False
    if it.func.value != "range" or not builtin(ctx, "range"):
        return False
    args = it.args
    if not 1 <= len(args) <= 2 or any(a.keyword or a.star for a in args):
        return False
    stmt = ctx.graph.by_node.get(loop)
    limits = [bounds(ctx, stmt, a.value, {}) if stmt else None for a in args]
    if len(limits) == 1:
        limits.insert(0, (0, 0))
    start, stop = limits
    return start is not None and stop is not None and start[1] < stop[0]
