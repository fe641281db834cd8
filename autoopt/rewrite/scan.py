"""Rewrite a collecting loop as one jitted `lax.scan` (plan: analysis/plans/scan.py).

The loop body moves, unchanged, into a module-level helper that scans over the
loop's indices:

    @jax.jit
    def main_loop(params, xs, steps):
        def body(carry, i):
            params = carry
            params, loss = update(params, xs[i])
            return params, loss

        return jax.lax.scan(body, params, steps)

and the loop becomes `params, losses = main_loop(params, xs, jnp.arange(n))`:
the collected values come back stacked in `losses`. The helper donates the carries
`donate` (those the donation analysis proves harmless in the rewritten program).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import bound_names
from autoopt.analysis.plans.scan import ScanPlan
from autoopt.model import Edit, InsertBefore, Replace
from autoopt.rewrite.helpers import grouped, spaced, top_statement
from autoopt.rewrite.jit import claim_name, fresh_name, jit_decorator
from autoopt.rewrite.spell import spell


def scan_edits(
    ctx: ModuleContext, plan: ScanPlan, donate: Sequence[str] = ()
) -> tuple[list[Edit], str]:
    """The helper (donating `donate`) before the enclosing function and the loop replaced
    by its call, which binds each collected list's name to its stacked values; and the
    helper's name."""
    helper, steps = fresh_name(ctx, f"{plan.fn.name}_loop"), fresh_name(ctx, "steps")
    decorator, imports = jit_decorator(ctx, donate=donate)
    scan, more = spell(ctx, "jax.lax.scan")
    arange, most = spell(ctx, "jax.numpy.arange")
    body = _body_function(ctx, plan)
    params = ", ".join([*plan.carry, *plan.inputs, steps])
    run = f"{scan}({body.name.value}, {grouped(plan.carry)}, {steps})"
    definition = cst.parse_statement(f"@{decorator}\ndef {helper}({params}):\n    return {run}\n")
    assert type(definition) is cst.FunctionDef  # parsed from a `def`
    block = definition.body.with_changes(body=[body, *definition.body.body])
    anchor = top_statement(ctx, ctx.graph.stmts[plan.loop.header])
    definition = spaced(ctx, definition.with_changes(body=block), anchor)
    bounds = ", ".join(ctx.code(b) for b in plan.bounds)
    args = ", ".join([*plan.carry, *plan.inputs, f"{arange}({bounds})"])
    call = f"{helper}({args})" if plan.carry else f"{helper}({args})[1]"
    line = cst.parse_statement(f"{_target(plan)} = {call}\n")
    edits: list[Edit] = [
        *imports,
        *more,
        *most,
        InsertBefore(anchor, (definition,)),
        Replace(plan.loop.node, lambda node: line.with_changes(leading_lines=node.leading_lines)),
    ]
    return edits, helper


def _body_function(ctx: ModuleContext, plan: ScanPlan) -> cst.FunctionDef:
    """`def body(carry, i):` unpacking the carry, the loop's lines, and the return."""
    carry = "carry" if plan.carry else "_carry"
    outs = _returned(ctx, plan)
    head = f"    {', '.join(plan.carry)} = {carry}\n" if plan.carry else ""
    template = cst.parse_statement(
        f"def {fresh_name(ctx, 'body')}({carry}, {plan.index}):\n"
        f"{head}    return {grouped(plan.carry)}, {grouped(tuple(outs))}\n"
    )
    assert type(template) is cst.FunctionDef  # parsed from a `def`
    parsed = template.body.body
    block = template.body.with_changes(
        body=[*parsed[:-1], *_lines(plan, outs), parsed[-1]],
        footer=[cst.EmptyLine(indent=False)],
    )
    return template.with_changes(body=block)


def _lines(plan: ScanPlan, outs: list[str]) -> list[cst.BaseStatement]:
    """The loop's lines; each collecting line (or its `if`) binds its value, every step,
    or goes when the value is returned by its own name."""
    collected = {id(c.line): (c, out) for c, out in zip(plan.collects, outs, strict=True)}
    lines = []
    for line in plan.loop.node.body.body:
        if id(line) not in collected:
            lines.append(line)
            continue
        c, out = collected[id(line)]
        if not (type(c.value) is cst.Name and c.value.value == out):
            assign = cst.Assign([cst.AssignTarget(cst.Name(out))], c.value)
            lines.append(c.stmt.anchor.with_changes(body=[assign], leading_lines=()))
    return lines  # type: ignore[return-value]  # a loop's block holds statements


def _returned(ctx: ModuleContext, plan: ScanPlan) -> list[str]:
    """What `body` returns per step for each collect: the collected name itself when no
    later line rebinds it, else a fresh name bound in its place."""
    body = list(plan.loop.node.body.body)
    outs, taken = [], set[str]()
    for c in plan.collects:
        later = body[body.index(c.line) + 1 :]  # type: ignore[arg-type]  # placed: a line
        rebound = type(c.value) is cst.Name and any(c.value.value in _bound(line) for line in later)
        if type(c.value) is cst.Name and not rebound and c.value.value not in outs:
            outs.append(c.value.value)
        else:
            outs.append(claim_name(ctx, "collected", taken))
    return outs


def _bound(line: cst.CSTNode) -> set[str]:
    """Names a plain line assigns (the loop body holds no other kind that binds)."""
    if type(line) is not cst.SimpleStatementLine:
        return set()
    return {
        name
        for small in line.body
        if type(small) is cst.Assign
        for t in small.targets
        for name in bound_names(t.target)
    }


def _target(plan: ScanPlan) -> str:
    stacked = grouped(tuple(c.name for c in plan.collects))
    if not plan.carry:
        return stacked
    carry = ", ".join(plan.carry)
    return f"({carry}), {stacked}" if len(plan.carry) > 1 else f"{carry}, {stacked}"
