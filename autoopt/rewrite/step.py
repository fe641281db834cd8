"""Extract an eager loop's body into a step function (plan: analysis/step.py).

    for t in range(n):
        h = cell(params, h, xs[t])
        out = out.at[t].set(h)

becomes

    def run_step(t, h, out, params, xs):
        h = cell(params, h, xs[t])
        out = out.at[t].set(h)
        return h, out

    for t in range(n):
        h, out = run_step(t, h, out, params, xs)

The body's lines move unchanged, comments included. `extracted` gives the
program with the step in place (undecorated) for the jit plan to judge; the
rule then decorates the step as that plan and the donation analysis say.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import MODULE
from autoopt.analysis.step import StepPlan
from autoopt.model import Edit, InsertBefore, Replace
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.helpers import parse_function, spaced, top_statement
from autoopt.rewrite.jit import fresh_name


def step_name(ctx: ModuleContext, plan: StepPlan, taken: Sequence[str] = ()) -> str:
    """`_<function>_step` (`_step` at module level), private and not bound anywhere in
    the module."""
    scope = plan.loop.scope.rsplit(".", 1)[-1]
    return fresh_name(ctx, "_step" if plan.loop.scope == MODULE else f"_{scope}_step", taken)


def step_function(ctx: ModuleContext, plan: StepPlan, name: str) -> cst.FunctionDef:
    """`def name(params): <body>; return <names>`, spaced for its place."""
    returned = ", ".join(plan.returns)
    template = parse_function(f"def {name}({', '.join(plan.params)}):\n    return {returned}\n")
    loop = plan.loop.node
    lines = list(loop.body.body)  # type: ignore[union-attr]
    block = template.body.with_changes(body=[*lines, *template.body.body])
    return spaced(ctx, template.with_changes(body=block), _anchor(ctx, plan))


def step_call(plan: StepPlan, name: str) -> cst.SimpleStatementLine:
    """`outs = name(params)`, the loop's new body."""
    call = f"{', '.join(plan.returns)} = {name}({', '.join(plan.params)})\n"
    line = cst.parse_statement(call)
    assert isinstance(line, cst.SimpleStatementLine)
    return line


def step_edits(
    ctx: ModuleContext, plan: StepPlan, definition: cst.FunctionDef, name: str
) -> list[Edit]:
    """Put `definition` above the loop's top-level statement; the loop calls it."""
    call = step_call(plan, name)
    loop = plan.loop.node

    def transform(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.For)
        return node.with_changes(body=node.body.with_changes(body=[call]))

    return [InsertBefore(_anchor(ctx, plan), (definition,)), Replace(loop, transform)]


def extracted(ctx: ModuleContext, plan: StepPlan, name: str) -> str:
    """The module's code with the step extracted and undecorated."""
    edits = step_edits(ctx, plan, step_function(ctx, plan, name), name)
    return apply_edits(ctx.module, edits).code


def _anchor(ctx: ModuleContext, plan: StepPlan) -> cst.CSTNode:
    """The statement the step goes above: the loop's top-level function (or class), or
    for a loop of module code the outermost loop holding it."""
    header = ctx.graph.stmts[plan.loop.header]
    if header.scope == MODULE and not header.loops:
        return plan.loop.node
    return top_statement(ctx, header)
