"""Keep collected host conversions on the device, convert once after the loop (plan:
analysis/plans/collect.py).

    losses = []
    for batch in batches:
        losses.append(float(loss))

becomes

    losses = []
    for batch in batches:
        losses.append(loss)
    losses = [float(value) for value in jax.device_get(losses)]

and a running sum `total += float(loss)` collects into `total_parts`, added to
`total` after the loop.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.plans.collect import CollectPlan, Sync
from autoopt.analysis.plans.scan import Collect, ScanPlan
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace, RequireImport
from autoopt.rewrite.jit import claim_name, fresh_name


def redo(ctx: ModuleContext, sync: Sync, element: str) -> str:
    """The same conversion applied to `element`, a host value from `jax.device_get`."""
    if sync.kind in ("item", "tolist"):
        return f"{element}.{sync.kind}()"
    if sync.kind == "jax.device_get":
        return element
    args = [ctx.code(a) for a in sync.call.args[1:]]
    return f"{ctx.code(sync.call.func)}({', '.join([element, *args])})"


def conversion(plan: CollectPlan, where: str = "") -> tuple[str, tuple[RequireImport, ...]]:
    """`losses = [float(value) for value in jax.device_get(losses)]`, and its imports;
    `where` is a comprehension clause that picks the elements (`for t, value in ...`)."""
    ctx, name = plan.ctx, plan.name
    device_get, imports = ctx.ref("jax.device_get")
    if plan.sync.kind == "jax.device_get":
        return f"{name} = {device_get}({name})", imports
    element = fresh_name(ctx, "value")  # local to the comprehension
    source = f"{device_get}({name})"
    clause = where.format(element=element, source=source) or f"for {element} in {source}"
    return f"{name} = [{redo(ctx, plan.sync, element)} {clause}]", imports


def picked(ctx: ModuleContext, scan: ScanPlan, collect: Collect) -> str:
    """The comprehension clause keeping the steps a guarded append ran on (empty: all)."""
    if collect.condition is None:
        return ""
    bounds = ", ".join(ctx.code(b) for b in scan.bounds)
    test = ctx.code(collect.condition)
    return f"for {scan.index}, {{element}} in zip(range({bounds}), {{source}}) if {test}"


def collect_edits(plan: CollectPlan, names: set[str]) -> tuple[list[Edit], str]:
    """The edits, and how the fix reads in the message; `names` are the names other
    fixes of this run took (updated)."""
    if plan.how == "append":
        return _append_edits(plan, names)
    return _sum_edits(plan, names)


def _append_edits(plan: CollectPlan, names: set[str]) -> tuple[list[Edit], str]:
    """The device value appended, the list converted after the loop (a list not set
    empty just before it: the device values collected apart, added after it)."""
    if plan.start(plan.loop) is None:
        return _extend_edits(plan, names)
    value = plan.sync.value
    text, imports = conversion(plan)
    after = (cst.parse_statement(text + "\n"),)
    edits: list[Edit] = [
        Replace(plan.sync.call, lambda _node: value),
        InsertAfter(plan.loop.node, after),
    ]
    return [*edits, *imports], f"keep the device values, then `{text}` after the loop"


def _sum_edits(plan: CollectPlan, names: set[str]) -> tuple[list[Edit], str]:
    """The device values collected in a list, added to the sum after the loop."""
    ctx, loop = plan.ctx, plan.loop
    device_get, imports = ctx.ref("jax.device_get")
    element = fresh_name(ctx, "value")  # local to the final loop
    parts = claim_name(ctx, f"{plan.name}_parts", names)
    after = cst.parse_statement(
        f"for {element} in {device_get}({parts}):\n"
        f"    {plan.name} += {redo(ctx, plan.sync, element)}\n"
    )
    append = cst.Expr(cst.parse_expression(f"{parts}.append({ctx.code(plan.sync.value)})"))
    edits: list[Edit] = [
        InsertBefore(loop.node, (cst.parse_statement(f"{parts} = []\n"),)),
        Replace(plan.stmt.node, lambda _node: append),
        InsertAfter(loop.node, (after,)),
        *imports,
    ]
    how = f"collect the device values in `{parts}` and add them to `{plan.name}` after the loop"
    return edits, how


def _extend_edits(plan: CollectPlan, names: set[str]) -> tuple[list[Edit], str]:
    """The device values collected in a list of their own, converted and added to the
    list after the loop, in order."""
    ctx, loop = plan.ctx, plan.loop
    device_get, imports = ctx.ref("jax.device_get")
    element = fresh_name(ctx, "value")  # local to the comprehension
    parts = claim_name(ctx, f"{plan.name}_parts", names)
    converted = f"[{redo(ctx, plan.sync, element)} for {element} in {device_get}({parts})]"
    after = cst.parse_statement(f"{plan.name}.extend({converted})\n")
    append = cst.Expr(cst.parse_expression(f"{parts}.append({ctx.code(plan.sync.value)})"))
    edits: list[Edit] = [
        InsertBefore(loop.node, (cst.parse_statement(f"{parts} = []\n"),)),
        Replace(plan.stmt.node, lambda _node: append),
        InsertAfter(loop.node, (after,)),
        *imports,
    ]
    how = (
        f"collect the device values in `{parts}`, then `{plan.name}.extend({converted})` "
        "after the loop"
    )
    return edits, how
