"""Can a host value read at an interval collect device values between its reads (AO302's
interval form)?

    total = 0.0
    for step in range(n):
        params, loss = train_step(params, batch)
        total += loss.item()
        if step % 100 == 99:
            print(f"mean loss {total / 100:.4f}")
            total = 0.0

keeps each `loss` on the device in a pending list and flushes it into `total` (the same
conversion, the same `+=` or `append`, in the same order) just before each statement
that reads or changes `total` and after the loop, so every read sees the value it saw
before. Premises, each failing one named:

- the collecting statement is the only one of the loop that collects into the name; the
  list (sum) starts as the list form's does (`plans/collect.py`'s `start`): empty (a
  number) before the loop, with nothing between that reads or changes it, and no alias;
- every other statement of the loop that reads or changes the name is a simple statement
  on its own line (not an `if`/`while` test: control flow), inside an `if` of the loop
  that does not hold the collection and tests a name the loop changes (the index, a
  counter: so it runs on fewer steps, not on every step as under `if verbose:`), and
  where it rebinds the name, to an empty list (a number), so a later collection fails
  where it failed before; no `del` of it in the loop, and the loop's `else` does not
  read it;
- no other code reads it while the loop runs (`facts/mutation.py`'s `late_reader`), and
  no later call of the loop donates a kept value (`plans/collect.py`);
- the loop leaves only where the after-loop flush covers it: no `return` or `yield` in
  it (`break` and `continue` are covered), the conversion is in no `try` of the loop (an
  error it raised there could be handled before the flush raises it), and no `try`
  encloses the loop (an exception leaving it skips the flush, and the handler could read
  the name). A `with` around the loop (its exit may swallow the exception) or a loop at
  module level (the module's names stay readable after an exception or Ctrl-C) leaves the
  fix unproven (`unproven`), as does a name that outlives the function (a global).

The code: rewrite/interval.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.mutation import late_reader
from autoopt.analysis.plans.collect import (
    CONTROL,
    CollectPlan,
    collected_by,
    donation_problem,
    exits_early,
    sets_start,
)


@dataclass(frozen=True)
class IntervalPlan:
    """Collect `collect`'s device values in a pending list; flush it before each of
    `flushes` (statements of their blocks) and after `loop`."""

    collect: CollectPlan
    loop: Loop
    flushes: tuple[cst.BaseStatement, ...]
    unproven: str  # why the fix is only unsafe; empty when every premise is proven


def interval_plan(collect: CollectPlan) -> IntervalPlan | str:
    """The plan, or the premise that fails."""
    ctx, name = collect.ctx, collect.name
    loop = ctx.graph.loops[collect.stmt.loops[-1]]
    readers = [
        s
        for s in ctx.graph.loop_stmts(loop.id)
        if s is not collect.stmt and name in s.uses | s.mutates | s.defs
    ]
    problem = (
        _exit_problem(ctx, collect, loop)
        or _reader_problem(ctx, collect, loop, readers)
        or _start_problem(collect, loop)
        or donation_problem(ctx, loop, collect.sync.value, collect.dropped)
    )
    if problem:
        return problem
    return IntervalPlan(collect, loop, _flushes(ctx, readers), _unproven(ctx, loop, name))


def _reader_problem(
    ctx: ModuleContext, collect: CollectPlan, loop: Loop, readers: list[Stmt]
) -> str | None:
    """Why a statement reading or changing the name cannot be flushed before."""
    name = collect.name
    if not readers:
        return f"`{name}` is not read in the loop"
    collecting = set(map(id, ctx.ancestors(collect.stmt.node)))
    for reader in readers:
        problem = _one_reader_problem(ctx, collect, loop, reader, collecting)
        if problem:
            return problem
    if any(type(n) is cst.Del and name in _names(n.target) for n in walk(loop.node.body)):
        return f"`{name}` is deleted in the loop, so a later collection would fail later"
    orelse = loop.node.orelse
    if orelse is not None and name in _names(orelse):
        return f"`{name}` is read in the loop's `else`, before the values are converted"
    late = late_reader(ctx, loop, name)
    return f"{late} and could run during the loop" if late else None


def _one_reader_problem(
    ctx: ModuleContext, collect: CollectPlan, loop: Loop, reader: Stmt, collecting: set[int]
) -> str | None:
    name, line = collect.name, ctx.span(reader.node).line
    if type(reader.node) in (cst.If, cst.While):
        return CONTROL
    if collected_by(ctx, reader, collect.sync.kind) is not None:
        return f"`{name}` is also collected at line {line}"
    if type(reader.node) not in _SIMPLE or type(reader.anchor) is not cst.SimpleStatementLine:
        return f"`{name}` is read at line {line} by a statement that cannot be flushed before"
    if reader.anchor is collect.stmt.anchor:
        return f"`{name}` is read on the line that collects it"
    unguarded = _guard_problem(ctx, reader, loop, collecting)
    if unguarded:
        return f"`{name}` {unguarded}"
    if name in reader.defs and not sets_start(reader.node, name, collect.how):
        what = "an empty list" if collect.how == "append" else "a number"
        return f"`{name}` is rebound at line {line} to a value not proven {what}"
    return None


#: Statements a flush can go before; a `del` would make a later collection fail later.
_SIMPLE = (cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.Assert, cst.Raise)


def _names(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if type(n) is cst.Name}


def _guard_problem(
    ctx: ModuleContext, reader: Stmt, loop: Loop, collecting: set[int]
) -> str | None:
    """Why `reader` may run on every step the loop collects: no `if` of the loop that
    does not hold the collection holds it, or none tests a name the loop changes (the
    index, a counter; a flag like `verbose` is true on every step or none)."""
    inside = ctx.ancestors(reader.node)
    start = next(i for i, node in enumerate(inside) if node is loop.node)
    guards = [n for n in inside[start + 1 :] if type(n) is cst.If and id(n) not in collecting]
    line = ctx.span(reader.node).line
    if not guards:
        return f"is read at line {line} on every step the loop collects it"
    changed = ctx.graph.written_in_loop(loop.id)
    if not any(changed & _names(guard.test) for guard in guards):
        test = ctx.code(guards[-1].test)
        return f"is read at line {line} under `if {test}`, whose test the loop does not change"
    return None


def _exit_problem(ctx: ModuleContext, collect: CollectPlan, loop: Loop) -> str | None:
    """Why the loop could be left, or the conversion fail, where the flush is skipped."""
    if exits_early(loop):
        return "the loop can `return` or `yield` before the values are converted"
    inside = ctx.ancestors(collect.stmt.node)
    start = next(i for i, node in enumerate(inside) if node is loop.node)
    if any(type(node) in _TRY for node in inside[start:]):
        return "the conversion is inside a `try` of the loop, which could handle its error"
    if any(type(node) in _TRY for node in _enclosing(ctx, loop)):
        return "an exception leaving the loop would skip the flush before an enclosing `try`"
    return None


_TRY = (cst.Try, cst.TryStar)


def _enclosing(ctx: ModuleContext, loop: Loop) -> list[cst.CSTNode]:
    """The nodes around the loop within its function (or module)."""
    inside = ctx.ancestors(loop.node)[:-1]
    defs = [i for i, node in enumerate(inside) if type(node) is cst.FunctionDef]
    return inside[defs[-1] + 1 :] if defs else inside


def _start_problem(collect: CollectPlan, loop: Loop) -> str | None:
    if collect.start(loop) is None:
        what = "an empty list" if collect.how == "append" else "a number"
        return f"`{collect.name}` is not {what} set before the loop with nothing between"
    return None


def _unproven(ctx: ModuleContext, loop: Loop, name: str) -> str:
    """Why an exception leaving the loop could let code read the name unflushed."""
    fn = ctx.graph.functions.get(loop.scope)
    if fn is None or name in fn.globals | fn.nonlocals:
        return (
            f"an exception (Ctrl-C) leaving the loop leaves `{name}`, which outlives the "
            "function, without its last values"
        )
    if any(type(node) is cst.With for node in _enclosing(ctx, loop)):
        return (
            f"a `with` around the loop could swallow an exception that skipped the flush, "
            f"leaving `{name}` without its last values"
        )
    return ""


def _flushes(ctx: ModuleContext, readers: list[Stmt]) -> tuple[cst.BaseStatement, ...]:
    """The first line of each run of reading lines in a block: flushing before it covers
    the lines that follow it (simple statements never collect)."""
    lines = {id(r.anchor): r.anchor for r in readers}
    firsts = []
    for line in lines.values():
        block = ctx.ancestors(line)[-2]
        body = list(getattr(block, "body", ()))
        at = next(i for i, s in enumerate(body) if s is line)
        if at == 0 or id(body[at - 1]) not in lines:
            firsts.append(line)
    return tuple(firsts)
