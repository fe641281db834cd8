"""Run the `nnx.jit` steps of a counted loop between its interval reads as compiled
loops (plan: analysis/plans/nnx_loop.py).

    for i in range(301):
        train_step(model, optimizer, x, y)
        if i % 50 == 0:
            print(i, loss_fn(model, x_test, y_test))

becomes

    @nnx.jit
    def _loop(model, optimizer, x, y, steps):
        def body(_, carry):
            model, optimizer = carry
            train_step(model, optimizer, x, y)
            return model, optimizer

        nnx.fori_loop(0, steps, body, (model, optimizer))


    _pending = 0
    for i in range(301):
        _pending += 1
        if i % 50 == 0:
            _loop(model, optimizer, x, y, _pending)
            _pending = 0
            print(i, loss_fn(model, x_test, y_test))
    if _pending:
        _loop(model, optimizer, x, y, _pending)

The loop still counts the iterations and tests the condition at each (a few Python
operations), and the steps pending at a read run first, as one compiled loop: one
dispatch, and one compilation, since `steps` is traced. The modules ride in the loop's
carry, so `nnx.fori_loop` carries all their state from step to step; `nnx.jit` writes it
back into them when the call returns. The steps left after the last read run after the
loop.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.plans.nnx_loop import NnxLoop
from autoopt.analysis.semantic import semantic
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace
from autoopt.rewrite.helpers import grouped, parse_function, spaced
from autoopt.rewrite.jit import fresh_name
from autoopt.rewrite.step import loop_anchor


def nnx_loop_edits(ctx: ModuleContext, plan: NnxLoop, function: str, pending: str) -> list[Edit]:
    """`function`, the compiled loop of the steps, above the loop's function; the step's
    line counting the steps in `pending`, run at the top of the interval block and after
    the loop."""
    definition, imports = _compiled_loop(ctx, plan, function)
    args = ", ".join((*_names(plan), pending))
    run = f"{function}({args})"
    anchor = loop_anchor(ctx, plan.loop)
    start = cst.parse_statement(f"{pending} = 0\n")
    before: list[Edit] = [InsertBefore(anchor, (spaced(ctx, definition, anchor),))]
    before.append(InsertBefore(plan.loop.node, (start,)))
    first = plan.interval.body.body[0]
    return [
        *imports,
        *before,
        Replace(
            plan.line,
            lambda node: cst.parse_statement(f"{pending} += 1\n").with_changes(
                leading_lines=node.leading_lines
            ),
        ),
        InsertBefore(first, tuple(cst.parse_statement(f"{s}\n") for s in (run, f"{pending} = 0"))),
        InsertAfter(plan.loop.node, (cst.parse_statement(f"if {pending}:\n    {run}\n"),)),
    ]


def _names(plan: NnxLoop) -> tuple[str, ...]:
    return (*plan.modules, *plan.inputs)


def _compiled_loop(
    ctx: ModuleContext, plan: NnxLoop, function: str
) -> tuple[cst.FunctionDef, tuple]:
    """`@nnx.jit def function(modules, inputs, steps):` running the step `steps` times
    with `nnx.fori_loop`, the modules its carry."""
    decorator, imports = semantic(ctx).nnx_jit_spelling()
    fori, more = semantic(ctx).nnx_jit_spelling("fori_loop")
    names = _names(plan)
    steps = _free("steps", names)
    index = _free("_", names)
    carry = grouped(plan.modules)
    body = fresh_name(ctx, "body", (function,))
    single = len(plan.modules) == 1
    parameter = carry if single else _free("carry", names)
    unpack = "" if single else f"        {', '.join(plan.modules)} = {parameter}\n"
    code = (
        f"@{decorator}\ndef {function}({', '.join((*names, steps))}):\n"
        f"    def {body}({index}, {parameter}):\n{unpack}"
        f"        return {', '.join(plan.modules)}\n\n"
        f"    {fori}(0, {steps}, {body}, {carry})\n"
    )
    template = parse_function(code)
    inner = template.body.body[0]
    assert type(inner) is cst.FunctionDef
    lines = list(inner.body.body)
    step = plan.line.with_changes(leading_lines=[])
    inner = inner.with_changes(body=inner.body.with_changes(body=[*lines[:-1], step, lines[-1]]))
    block = template.body.with_changes(body=[inner, *template.body.body[1:]])
    return template.with_changes(body=block), (*imports, *more)


def _free(base: str, names: tuple[str, ...]) -> str:
    """`base`, or `base` with underscores before it, not among `names`."""
    while base in names:
        base = f"_{base}"
    return base
