"""Can a loop's print run after the loop instead (AO302's unsafe fix)?

The print must stand alone on its line and be the loop's only print, the loop may
not `return` or `yield`, and besides the device values it converts the print may
only read the loop's `range` index and module constants: those are recorded or
read again after the loop. The code: rewrite/replay.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.values.ints import module_constant, range_loop


@dataclass(frozen=True)
class Printed:
    """A device value the print converts: the conversion, the value, and the same
    conversion applied to an element of `jax.device_get` (by name)."""

    call: cst.Call
    value: cst.BaseExpression
    redo: Callable[[str], str]


def replay_problem(ctx: ModuleContext, stmt: Stmt, loop: Loop, printed: list[Printed]) -> str:
    """Why the print cannot be replayed after the loop; empty when it can."""
    call = print_call(stmt)
    if call is None:
        return "the print is part of a larger statement"
    prints = [n for n in walk(loop.node.body) if _is_print(n)]
    if len(prints) > 1:
        return "the loop prints other lines too, whose order would change"
    if any(type(n) in (cst.Return, cst.Yield) for n in walk(loop.node.body)):
        return "the loop can `return` or `yield` before the lines are printed"
    for name in sorted(snapshots(call, printed)):
        if not (range_loop(ctx, stmt, name) or _module_constant(ctx, name)):
            return f"the print also reads `{name}`, whose value then is not kept"
    return ""


def print_call(stmt: Stmt) -> cst.Call | None:
    """The `print(...)` call that `stmt` is, alone on its line, or None."""
    value = stmt.value
    if type(stmt.node) is cst.Expr and type(value) is cst.Call and _is_print(value):
        return value if stmt.alone else None
    return None


def _is_print(node: cst.CSTNode) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "print"


def snapshots(call: cst.Call, printed: list[Printed]) -> set[str]:
    """Names the print reads outside its device conversions (`print` itself aside)."""
    inside = {id(n) for p in printed for n in read_names(p.call)}
    names = {n.value for n in read_names(call) if id(n) not in inside and n is not call.func}
    return names - {"True", "False", "None"}


def constants(ctx: ModuleContext, call: cst.Call) -> list[str]:
    """The module constants the print reads: read again after the loop."""
    return [n.value for n in read_names(call) if _module_constant(ctx, n.value)]


def _module_constant(ctx: ModuleContext, name: str) -> bool:
    return module_constant(ctx, name) is not None
