"""Run a loop of in-place updates as `lax.fori_loop` inside `@jax.jit` (plan:
analysis/plans/fori.py).

    def f(x):
        acc = jnp.zeros((4, 3))
        for i in range(x.shape[0]):
            acc = acc.at[i].set(x[i])
        return acc

becomes

    @jax.jit
    def f(x):
        acc = jnp.zeros((4, 3))

        def body(i, carry):
            acc = carry
            acc = acc.at[i].set(x[i])
            return acc

        acc = jax.lax.fori_loop(0, x.shape[0], body, acc)
        return acc
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.plans.fori import ForiPlan
from autoopt.model import Edit, InsertBefore, Replace
from autoopt.rewrite.helpers import parse_function
from autoopt.rewrite.jit import add_decorator, fresh_name, jit_decorator
from autoopt.rewrite.spell import spell


def fori_edits(ctx: ModuleContext, plan: ForiPlan) -> list[Edit]:
    """`@jax.jit` on the function; the loop body as a function run by fori_loop."""
    jit, imports = jit_decorator(ctx)
    fori, more = spell(ctx, "jax.lax.fori_loop")
    names = ", ".join(plan.carry)
    loop = plan.loop.node
    low, high = (["0"] if len(plan.bounds) == 1 else []) + [ctx.code(b) for b in plan.bounds]
    initial = f"({names})" if len(plan.carry) > 1 else names
    body = _body_function(ctx, plan)
    run = cst.parse_statement(f"{names} = {fori}({low}, {high}, {body.name.value}, {initial})\n")
    return [
        *imports,
        *more,
        Replace(plan.fn.node, add_decorator(ctx, jit)),
        InsertBefore(loop, (body,)),
        Replace(loop, lambda _n: run),
    ]


def _body_function(ctx: ModuleContext, plan: ForiPlan) -> cst.FunctionDef:
    """`def body(i, carry)`: unpack the carry, the loop's lines, return the carry; a
    blank line above it unless the loop has one, and one below it."""
    name, carry = fresh_name(ctx, "body"), fresh_name(ctx, "carry")
    names = ", ".join(plan.carry)
    template = parse_function(
        f"def {name}({plan.index}, {carry}):\n    {names} = {carry}\n    return {names}\n"
    )
    unpack, ret = template.body.body
    loop = plan.loop.node
    block = template.body.with_changes(
        body=[unpack, *loop.body.body, ret], footer=[cst.EmptyLine(indent=False)]
    )
    spaced = any(type(line) is cst.EmptyLine for line in loop.leading_lines)
    return template.with_changes(
        body=block, leading_lines=[] if spaced else [cst.EmptyLine(indent=False)]
    )
