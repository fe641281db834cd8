"""Print a loop's lines after it: record the printed device values, convert them once.

    for t in range(n):
        x = step(x)
        print(f"step {t}: {x.mean().item():.4f}")

becomes

    printed = []
    for t in range(n):
        x = step(x)
        printed.append((t, x.mean()))
    for t_printed, value in jax.device_get(printed):
        print(f"step {t_printed}: {value.item():.4f}")

The same text, printed when the loop ends rather than as it runs (AO302's unsafe fix;
premises: analysis/plans/replay.py).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.plans.replay import Printed, constants, print_call, snapshots
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace
from autoopt.rewrite.jit import claim_name


def replay_edits(
    ctx: ModuleContext, stmt: Stmt, loop: Loop, printed: list[Printed], taken: set[str]
) -> tuple[list[Edit], str]:
    """The edits, and how the fix reads in the message."""
    call = print_call(stmt)
    assert call is not None
    lines = claim_name(ctx, "printed", taken)
    kept = sorted(snapshots(call, printed) - set(constants(ctx, call)))
    elements = {name: claim_name(ctx, f"{name}_printed", taken) for name in kept}
    values = [claim_name(ctx, "value", taken) for _ in printed]
    recorded = [*kept, *(ctx.code(p.value) for p in printed)]
    device_get, imports = ctx.ref("jax.device_get")
    replayed = call.visit(_Substitute(call, elements, printed, values))
    targets = [*elements.values(), *values]
    unpack = f"({targets[0]},)" if len(targets) == 1 else ", ".join(targets)
    after = cst.parse_statement(
        f"for {unpack} in {device_get}({lines}):\n    {ctx.code(replayed)}\n"  # type: ignore[arg-type]  # a Call
    )
    record = f"({recorded[0]},)" if len(recorded) == 1 else f"({', '.join(recorded)})"
    append = cst.parse_expression(f"{lines}.append({record})")
    edits: list[Edit] = [
        InsertBefore(loop.node, (cst.parse_statement(f"{lines} = []\n"),)),
        Replace(stmt.node, lambda node: node.with_changes(value=append)),
        InsertAfter(loop.node, (after,)),
        *imports,
    ]
    return edits, f"record the printed values in `{lines}` and print the same lines after the loop"


class _Substitute(cst.CSTTransformer):
    """Each conversion becomes its redo on an element; each snapshot name its element."""

    def __init__(
        self, call: cst.Call, elements: dict[str, str], printed: list[Printed], values: list[str]
    ) -> None:
        super().__init__()
        self.names = {id(n): elements[n.value] for n in read_names(call) if n.value in elements}
        self.calls = {
            id(p.call): cst.parse_expression(p.redo(v))
            for p, v in zip(printed, values, strict=True)
        }

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return self.calls.get(id(original), updated)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        name = self.names.get(id(original))
        return cst.Name(name) if name else updated
