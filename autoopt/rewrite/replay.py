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

The same text, printed when the loop ends rather than as it runs (AO302's unsafe fix).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.exprs import read_names
from autoopt.analysis.graph import Loop, Stmt
from autoopt.analysis.ints import module_constant, range_loop
from autoopt.analysis.walk import walk
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace
from autoopt.rewrite.jit import claim_name


@dataclass(frozen=True)
class Printed:
    """A device value the print converts: the conversion, the value, and the same
    conversion applied to an element of `jax.device_get` (by name)."""

    call: cst.Call
    value: cst.BaseExpression
    redo: Callable[[str], str]


def replay_problem(ctx: ModuleContext, stmt: Stmt, loop: Loop, printed: list[Printed]) -> str:
    """Why the print cannot be replayed after the loop; empty when it can."""
    call = _print_call(stmt)
    if call is None:
        return "the print is part of a larger statement"
    prints = [n for n in walk(loop.node.body) if _is_print(n)]
    if len(prints) > 1:
        return "the loop prints other lines too, whose order would change"
    if any(isinstance(n, cst.Return | cst.Yield) for n in walk(loop.node.body)):
        return "the loop can `return` or `yield` before the lines are printed"
    for name in sorted(_snapshots(call, printed)):
        if not (range_loop(ctx, stmt, name) or _module_constant(ctx, name)):
            return f"the print also reads `{name}`, whose value then is not kept"
    return ""


def replay_edits(
    ctx: ModuleContext, stmt: Stmt, loop: Loop, printed: list[Printed], taken: set[str]
) -> tuple[list[Edit], str]:
    """The edits, and how the fix reads in the message."""
    call = _print_call(stmt)
    assert call is not None
    lines = claim_name(ctx, "printed", taken)
    snapshots = sorted(_snapshots(call, printed) - {n for n in _constants(ctx, call)})
    elements = {name: claim_name(ctx, f"{name}_printed", taken) for name in snapshots}
    values = [claim_name(ctx, "value", taken) for _ in printed]
    recorded = [*snapshots, *(ctx.code(p.value) for p in printed)]
    device_get, imports = ctx.ref("jax.device_get")
    replayed = call.visit(_Substitute(call, elements, printed, values))
    targets = [*elements.values(), *values]
    unpack = f"({targets[0]},)" if len(targets) == 1 else ", ".join(targets)
    after = cst.parse_statement(
        f"for {unpack} in {device_get}({lines}):\n    {ctx.code(replayed)}\n"
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


def _print_call(stmt: Stmt) -> cst.Call | None:
    node = stmt.node
    if isinstance(node, cst.Expr) and _is_print(node.value) and stmt.alone:
        return node.value  # type: ignore[return-value]
    return None


def _is_print(node: cst.CSTNode) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "print"
    )


def _snapshots(call: cst.Call, printed: list[Printed]) -> set[str]:
    """Names the print reads outside its device conversions (`print` itself aside)."""
    inside = {id(n) for p in printed for n in read_names(p.call)}
    names = {n.value for n in read_names(call) if id(n) not in inside and n is not call.func}
    return names - {"True", "False", "None"}


def _constants(ctx: ModuleContext, call: cst.Call) -> list[str]:
    return [n.value for n in read_names(call) if _module_constant(ctx, n.value)]


def _module_constant(ctx: ModuleContext, name: str) -> bool:
    return module_constant(ctx, name) is not None


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
