"""Can a compiled step run the whole loop, as one jitted `lax.scan`?

AO103 extracts the leading lines of an eager loop's body into a step function
(analysis/step.py). When those lines are the whole body and the loop is
`for i in range(n)` with `n` known, the loop itself can move onto the device:
`lax.scan` runs the step `n` times in one compiled program, carrying the names
the step carries and stacking the values the loop appends. This adds three
premises to the step's own:

- the loop runs a known number of times, at least once (`range` of integer
  literals or module constants: `scan` traces its body even for zero steps), and
  its variable is read neither by the step nor after the loop;
- the step returns only what it carries (a name of the last iteration read
  after the loop would have to come back from the scan too), and the loop is in
  a function (a module-level loop leaves its names as module globals);
- every carried name keeps its shape and dtype from one iteration to the next
  (analysis/carry.py) and is a floating-point array where the proof adds Python
  numbers to it (an integer array times `0.5` becomes a float array, which a
  Python loop allows and `scan` rejects). Values the step appends then have one
  shape and dtype in every iteration, so they stack.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.carry import entry_value, unstable_carry
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.exprs import is_at_update
from autoopt.analysis.fori import counted_for
from autoopt.analysis.graph import MODULE
from autoopt.analysis.scan import step_count
from autoopt.analysis.step import StepPlan

_FLOATING = frozenset(
    {"float", "float16", "bfloat16", "float32", "float64", "single", "double", "half",
     "complex64", "complex128"}
)  # fmt: skip


@dataclass(frozen=True)
class WholeLoop:
    """A step that is its loop's whole body: the names scan carries, and how often."""

    carry: tuple[str, ...]  # in the step's return order
    inputs: tuple[str, ...]  # the other names the step takes, in its parameter order
    length: str  # the trip count, as source text (`N_STEPS`, `20 - 4`)
    doubt: str = ""  # the carry premise not proven: the loop stays a step


def whole_loop(ctx: ModuleContext, plan: StepPlan) -> WholeLoop | None:
    """The scan form of a step (with a doubt when only the carry's type is not proven),
    or None when the loop has another shape."""
    node = plan.loop.node
    counted = counted_for(node)
    if counted is None or plan.loop.scope == MODULE:
        return None
    if len(plan.lines) != len(node.body.body) or _index_read(ctx, plan):
        return None
    index, bounds = counted
    if step_count(ctx, bounds) is None:
        return None
    carry = tuple(n for n in plan.returns if n in plan.params)
    rest = [n for n in plan.returns if n not in carry]
    if not all(_only_appended(ctx, plan, n) for n in rest):
        return None
    inputs = tuple(p for p in plan.params if p not in carry and p != index)
    return WholeLoop(carry, inputs, _length(ctx, bounds), _unstable(ctx, plan, carry))


def _index_read(ctx: ModuleContext, plan: StepPlan) -> bool:
    """The loop variable is read by the step, or anywhere outside the loop (it holds the
    last index after a Python loop; the scan binds nothing)."""
    if plan.index in plan.params:
        return True
    inside = {s.id for s in ctx.graph.loop_stmts(plan.loop.id)}
    return any(plan.index in s.uses for s in ctx.graph.stmts if s.id not in inside)


def _only_appended(ctx: ModuleContext, plan: StepPlan, name: str) -> bool:
    """`name` comes back only to be appended: nothing outside the loop reads it."""
    if all(a.returned != name for a in plan.appends):
        return False
    inside = {s.id for s in ctx.graph.loop_stmts(plan.loop.id)}
    return not any(name in s.uses for s in ctx.graph.stmts if s.id not in inside)


def _unstable(ctx: ModuleContext, plan: StepPlan, carry: tuple[str, ...]) -> str:
    """Why a carried name may change its type, or "" when every one keeps it (and is
    floating unless only `.at[]` updates rebind it)."""
    body = ctx.graph.loop_stmts(plan.loop.id)
    doubts = unstable_carry(ctx, body, carry)
    if doubts:
        return doubts[0]
    for name in carry:
        if entry_value(ctx, body, name).dtype not in _FLOATING and not _at_updates_only(body, name):
            return (
                f"cannot prove `{name}` is a floating-point array, whose dtype Python numbers keep"
            )
    return ""


def _at_updates_only(body: list, name: str) -> bool:
    """Every statement binding `name` is `name = name.at[...].op(...)`."""
    values = [s.value for s in body if name in s.defs]
    return all(isinstance(v, cst.Call) and is_at_update(v.func) for v in values)


def _length(ctx: ModuleContext, bounds: tuple[cst.BaseExpression, ...]) -> str:
    if len(bounds) == 1:
        return ctx.code(bounds[0])
    return f"{ctx.code(bounds[1])} - {ctx.code(bounds[0])}"
