"""Collect device values between a host value's reads; flush them into it just before
each read and after the loop (plan: analysis/plans/interval.py).

    total = 0.0
    for step in range(n):
        total += loss.item()
        if step % 100 == 99:
            print(total / 100)
            total = 0.0

becomes

    total = 0.0
    total_pending = []
    for step in range(n):
        total_pending.append(loss)
        if step % 100 == 99:
            for value in jax.device_get(total_pending):
                total += value.item()
            total_pending.clear()
            print(total / 100)
            total = 0.0
    for value in jax.device_get(total_pending):
        total += value.item()

and a list gets `losses.extend(float(value) for value in jax.device_get(losses_pending))`.
A host copy that only feeds such lists (`results = jax.device_get(results)`, plan:
analysis/plans/fed.py) is dropped, each list collecting its device leaf.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.plans.fed import FedPlan
from autoopt.analysis.plans.interval import IntervalPlan
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace, RequireImport
from autoopt.rewrite.collect import redo
from autoopt.rewrite.jit import claim_name, fresh_name


def interval_edits(plan: IntervalPlan, names: set[str]) -> tuple[list[Edit], str]:
    """The edits, and how the fix reads in the message; `names` are the names other
    fixes of this run took (updated)."""
    collect = plan.collect
    ctx, name = collect.ctx, collect.name
    pending = claim_name(ctx, f"{name}_pending", names)
    flush, imports = _flush(plan, pending)
    clear = cst.parse_statement(f"{pending}.clear()\n")
    append = cst.Expr(cst.parse_expression(f"{pending}.append({ctx.code(collect.sync.value)})"))
    edits: list[Edit] = [
        InsertBefore(plan.loop.node, (cst.parse_statement(f"{pending} = []\n"),)),
        Replace(collect.stmt.node, lambda _node: append),
        *(InsertBefore(line, (flush, clear)) for line in plan.flushes),
        InsertAfter(plan.loop.node, (flush,)),
        *imports,
    ]
    how = (
        f"collect the device values in `{pending}` and convert them into `{name}` just "
        "before it is read and after the loop"
    )
    return edits, how


def _flush(plan: IntervalPlan, pending: str) -> tuple[cst.BaseStatement, tuple[RequireImport, ...]]:
    """The statement that converts the pending values into the host value, in order."""
    collect = plan.collect
    ctx, name, sync = collect.ctx, collect.name, collect.sync
    device_get, imports = ctx.ref("jax.device_get")
    fetched = f"{device_get}({pending})"
    element = fresh_name(ctx, "value")  # local to the comprehension or the flush loop
    if collect.how == "sum":
        text = f"for {element} in {fetched}:\n    {name} += {redo(ctx, sync, element)}\n"
    elif sync.kind == "jax.device_get":
        text = f"{name}.extend({fetched})\n"
    else:
        text = f"{name}.extend({redo(ctx, sync, element)} for {element} in {fetched})\n"
    return cst.parse_statement(text), imports


def fed_edits(plan: FedPlan, names: set[str]) -> tuple[list[Edit], str]:
    """Drop the host copy; each list collects its device leaf by the interval form."""
    edits: list[Edit] = [Replace(plan.stmt.anchor, lambda _node: cst.RemovalSentinel.REMOVE)]
    lists = []
    for interval in plan.intervals:
        more, _how = interval_edits(interval, names)
        edits.extend(more)
        lists.append(f"`{interval.collect.name}`")
    how = (
        f"drop the copy and keep `{plan.name}` on the device; collect its leaves on the device "
        f"and convert them into {', '.join(lists)} just before each is read and after the loop"
    )
    return edits, how
