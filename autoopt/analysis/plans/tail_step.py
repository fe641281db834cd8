"""A step taken from device work that comes later in an eager loop's body.

    for step in range(n):
        if step % 1000 == 0:
            evaluate(avg_params, next(test))
        grads = grad_fn(params, next(train))
        params = apply(params, grads)
        progress = min(step / n, 1.0)

The first run of step lines after a statement that forms no step (`late_lines` in
analysis/plans/step.py), less its trailing lines that call Python builtins and nothing
else (host arithmetic, `min(step / n, 1.0)`, left in the loop), becomes the step, called
where the run stood: the statements before it and after it run as before, so what they
read and bind keeps its values. Each `next(it)` in the run's lines is called in the loop
just before the step, in the order the lines call them (`train_next = next(train)`), and
the step takes the value; the calls the run makes before it are then the step's own,
which the jit plan proves pure, so no effect changes its order against it.

Where a premise fails the plan carries it as a doubt (no fix, the premise named):

- each `next(it)` is called whatever happens (not under a conditional expression, an
  `and`/`or`, a starred argument), on a name the run neither binds nor reads otherwise;
- a `next(it)` after the first statement of the run, where raising (its iterator ends)
  would leave that statement's names unbound in the rewrite, is in a function, not under
  a `try` or `with` of it (an error ends the function, its locals unread);
- the statements before the run bind and change in place none of the names the step
  reads (a carry the earlier block replaces, a value it rebinds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import calls_in, read_names
from autoopt.analysis.core.free_names import fresh_name
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.plans.step import Hoisted, StepPlan, late_lines, lines_plan
from autoopt.analysis.values.shapes import is_builtin

# the nodes under which a call may not run, or run more than once
_CONDITIONAL = (cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.CompFor)
# the statements that may catch what the loop raises, keeping what it bound in view
_CATCHING = (cst.Try, cst.TryStar, cst.With)


def tail_plans(ctx: ModuleContext) -> list[StepPlan]:
    """A plan for every eager loop whose device work follows a statement that forms no
    step, in source order."""
    return ctx.per_module(_tail_plans)


def _tail_plans(ctx: ModuleContext) -> list[StepPlan]:
    found = (tail_plan(ctx, loop) for loop in ctx.graph.loops.values())
    return [plan for plan in found if plan is not None]


def tail_plan(ctx: ModuleContext, loop: Loop) -> StepPlan | None:
    """The plan of the step of the loop's late lines, or None where they form none (of
    two computing statements at least)."""
    late = late_lines(ctx, loop)
    lines = _trimmed(ctx, late.lines) if late is not None else []
    plan = lines_plan(ctx, loop, lines) if late is not None and lines else None
    if late is None or plan is None or plan.single:
        return None
    plan = _hoisting(ctx, replace(plan, start=late.start))
    doubt = _rebound(ctx, plan)
    return replace(plan, doubts=(*plan.doubts, doubt)) if doubt else plan


def _trimmed(
    ctx: ModuleContext, lines: Sequence[cst.SimpleStatementLine]
) -> list[cst.SimpleStatementLine]:
    """`lines` less the trailing ones that call Python builtins and nothing else."""
    kept = list(lines)
    while kept and (calls := calls_in(kept[-1])) and all(_builtin(ctx, c) for c in calls):
        kept.pop()
    return kept


def _builtin(ctx: ModuleContext, call: cst.Call) -> bool:
    return type(call.func) is cst.Name and is_builtin(ctx, call.func, call.func.value)


def _hoisting(ctx: ModuleContext, plan: StepPlan) -> StepPlan:
    """The plan with its `next(it)` calls made by the loop before the step, or with the
    premise that fails for one as a doubt."""
    calls = sorted(
        (c for line in plan.lines for c in calls_in(line) if is_builtin(ctx, c.func, "next")),
        key=lambda c: (ctx.span(c).line, ctx.span(c).column),
    )
    if not calls:
        return plan
    doubt = _unhoistable(ctx, plan, calls) or _batched(ctx, plan)
    if doubt:
        return replace(plan, doubts=(*plan.doubts, doubt))
    hoisted: list[Hoisted] = []
    for call in calls:
        iterator = call.args[0].value.value  # type: ignore[attr-defined]  # _unhoistable: a Name
        name = fresh_name(ctx, f"{iterator}_next", [h.name for h in hoisted])
        hoisted.append(Hoisted(call, name, iterator))
    iterators = {h.iterator for h in hoisted}
    params = (*(p for p in plan.params if p not in iterators), *(h.name for h in hoisted))
    return replace(plan, params=params, hoisted=tuple(hoisted))


def _unhoistable(ctx: ModuleContext, plan: StepPlan, calls: list[cst.Call]) -> str:
    """Why one of the `next(...)` calls may not be made before the step; "" if none."""
    step = _step_stmts(ctx, plan)
    given = {id(c.args[0].value) for c in calls if c.args}
    for call in calls:
        code = ctx.code(call)
        arg = call.args[0] if len(call.args) == 1 else None
        if arg is None or arg.keyword is not None or arg.star or type(arg.value) is not cst.Name:
            return f"`{code}` is not `next(<name>)`, which the loop could call before the step"
        if _conditional(ctx, call):
            return f"`{code}` may not run every iteration, so the loop cannot call it first"
        it = arg.value.value
        if any(it in s.defs or it in s.mutates for s in step):
            return f"the step's lines change `{it}`, so `{code}` cannot be called before them"
        read = [n for line in plan.lines for n in read_names(line) if n.value == it]
        if any(id(n) not in given for n in read):
            return f"the step's lines read `{it}` other than by `{code}`, whose order then matters"
    return _raising(ctx, plan, calls)


def _raising(ctx: ModuleContext, plan: StepPlan, calls: list[cst.Call]) -> str:
    """Why a `next(...)` that raises (its iterator ends) before the step's lines bind
    their names could be seen to: it is not in the first statement of the step's lines,
    and the loop is at module level (whose globals outlive an error) or inside a `try` or
    `with` of its function (which may catch it); "" where it could not."""
    first = plan.lines[0]
    late = [c for c in calls if len(first.body) > 1 or not any(c is n for n in calls_in(first))]
    if not late:
        return ""
    chain = ctx.ancestors(plan.loop.node)
    top = max(i for i, n in enumerate(chain) if type(n) in (cst.Module, cst.FunctionDef))
    guarded = any(type(n) in _CATCHING for n in chain[top:])
    if type(chain[top]) is cst.Module or guarded:
        where = "at module level" if type(chain[top]) is cst.Module else "inside a `try` or `with`"
        return (
            f"`{ctx.code(late[0])}` may raise (an iterator that ends) where the step's lines "
            f"before it have run, and the loop is {where}, where what they bound is then read"
        )
    return ""


def _batched(ctx: ModuleContext, plan: StepPlan) -> str:
    """Why a step that draws from an iterator cannot also take batches by the loop
    variable (rewrite/step.py rewrites one or the other); "" where it takes none."""
    blocks = plan.batches.blocks
    if not blocks:
        return ""
    return (
        f"it takes `{ctx.code(blocks[0].node)}` by the loop variable and draws from an "
        "iterator too, which autoopt does not rewrite together"
    )


def _conditional(ctx: ModuleContext, call: cst.Call) -> bool:
    """`call` is inside a conditional expression, an `and`/`or`, or a starred argument
    of its statement."""
    chain = ctx.ancestors(call)
    inner = chain[next(i for i, n in enumerate(chain) if type(n) is cst.SimpleStatementLine) :]
    return any(type(n) in _CONDITIONAL or (type(n) is cst.Arg and n.star) for n in inner)


def _rebound(ctx: ModuleContext, plan: StepPlan) -> str:
    """The premise that the statements before the step's lines fail: they bind or change
    in place a name the step reads; "" where they do not."""
    body = plan.loop.node.body.body
    first, last = ctx.span(body[0]).line, ctx.span(body[plan.start - 1]).end_line
    inputs = set(plan.params) - {h.name for h in plan.hoisted}
    for stmt in ctx.graph.loop_stmts(plan.loop.id):
        if first <= ctx.span(stmt.node).line <= last and stmt.scope == plan.loop.scope:
            changed = sorted((stmt.defs | stmt.mutates) & inputs)
            if changed:
                return (
                    f"`{changed[0]}`, which the step would read, is changed by line "
                    f"{ctx.span(stmt.node).line} before its lines, in the body"
                )
    return ""


def _step_stmts(ctx: ModuleContext, plan: StepPlan) -> list[Stmt]:
    """The statements of the step's lines."""
    moved = {id(small) for line in plan.lines for small in line.body}
    return [s for s in ctx.graph.loop_stmts(plan.loop.id) if id(s.node) in moved]
