"""Rewrite a collecting loop as one jitted `lax.scan` (plan: analysis/scan.py).

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
the collected values come back stacked in `losses`.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.scan import ScanPlan
from autoopt.model import Edit, InsertBefore, Replace
from autoopt.rewrite.helpers import spaced, top_statement
from autoopt.rewrite.jit import fresh_name, jit_decorator
from autoopt.rewrite.spell import spell


def scan_edits(ctx: ModuleContext, plan: ScanPlan, stacked: str) -> tuple[list[Edit], str]:
    """The helper before the enclosing function and the loop replaced by its call,
    which binds the stacked values to `stacked`; and the helper's name."""
    helper, steps = fresh_name(ctx, f"{plan.fn.name}_loop"), fresh_name(ctx, "steps")
    decorator, imports = jit_decorator(ctx)
    scan, more = spell(ctx, "jax.lax.scan")
    arange, most = spell(ctx, "jax.numpy.arange")
    body = _body_function(ctx, plan)
    params = ", ".join([*plan.carry, *plan.inputs, steps])
    run = f"{scan}({body.name.value}, {_pack(plan.carry)}, {steps})"
    definition = cst.parse_statement(f"@{decorator}\ndef {helper}({params}):\n    return {run}\n")
    block = definition.body.with_changes(  # type: ignore[attr-defined]
        body=[body, *definition.body.body]  # type: ignore[attr-defined]
    )
    anchor = top_statement(ctx, ctx.graph.stmts[plan.loop.header])
    definition = spaced(ctx, definition.with_changes(body=block), anchor)  # type: ignore[arg-type]
    bounds = ", ".join(ctx.code(b) for b in plan.bounds)
    args = ", ".join([*plan.carry, *plan.inputs, f"{arange}({bounds})"])
    call = f"{helper}({args})" if plan.carry else f"{helper}({args})[1]"
    line = cst.parse_statement(f"{_target(plan, stacked)} = {call}\n")
    edits = [
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
    out = _returned(ctx, plan)
    head = f"    {', '.join(plan.carry)} = {carry}\n" if plan.carry else ""
    template = cst.parse_statement(
        f"def {fresh_name(ctx, 'body')}({carry}, {plan.index}):\n"
        f"{head}    return {_pack(plan.carry)}, {out}\n"
    )
    parsed = template.body.body  # type: ignore[attr-defined]
    block = template.body.with_changes(  # type: ignore[attr-defined]
        body=[*parsed[:-1], *_lines(plan, out), parsed[-1]],
        footer=[cst.EmptyLine(indent=False)],
    )
    return template.with_changes(body=block)  # type: ignore[return-value]


def _lines(plan: ScanPlan, out: str) -> list[cst.BaseStatement]:
    """The loop's lines; the collecting line binds `out`, or goes when `out` is the
    collected name already."""
    lines = []
    for line in plan.loop.node.body.body:  # type: ignore[attr-defined]
        if line is not plan.collect.anchor:
            lines.append(line)
        elif not (isinstance(plan.value, cst.Name) and plan.value.value == out):
            assign = cst.Assign([cst.AssignTarget(cst.Name(out))], plan.value)
            lines.append(line.with_changes(body=[assign]))
    return lines


def _returned(ctx: ModuleContext, plan: ScanPlan) -> str:
    """What `body` returns per step: the collected name itself when the collecting
    line is the last one, else a fresh name bound in its place."""
    last = plan.loop.node.body.body[-1]  # type: ignore[attr-defined]
    if isinstance(plan.value, cst.Name) and plan.collect.anchor is last:
        return plan.value.value
    return fresh_name(ctx, "collected")


def _target(plan: ScanPlan, stacked: str) -> str:
    if not plan.carry:
        return stacked
    carry = ", ".join(plan.carry)
    return f"({carry}), {stacked}" if len(plan.carry) > 1 else f"{carry}, {stacked}"


def _pack(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"({', '.join(names)})"
