"""Can a loop's print run after the loop (AO302's unsafe fix)? The code: tests/rewrite."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.walk import walk
from autoopt.analysis.plans.replay import Printed, constants, print_call, replay_problem, snapshots

from ..helpers import context, stmt

SOURCE = """\
STEPS = 3
LABEL = "loss"

def main(x, n, ts):
    for t in range(n):
        x = x * 2
        {line}
    return x
"""


def printed(node: cst.CSTNode) -> list[Printed]:
    """The `<value>.item()` conversions under `node`, taken as device values."""
    return [
        Printed(c, c.func.value, lambda e: f"{e}.item()")
        for c in walk(node)
        if isinstance(c, cst.Call)
        and isinstance(c.func, cst.Attribute)
        and c.func.attr.value == "item"
    ]


@pytest.mark.parametrize(
    ("line", "call"),
    [
        ("print(x.item())", True),
        ("y = 1; print(x.item())", False),  # not alone on its line
        ("if t: print(x.item())", False),
        ("log(x.item())", False),
        ("y = print(x.item())", False),
    ],
)
def test_print_call(line: str, call: bool) -> None:
    ctx = context(SOURCE.format(line=line))
    [found] = [s for s in ctx.graph.stmts if "print" in s.uses or "log" in s.uses]
    assert (print_call(found) is not None) == call


@pytest.mark.parametrize(
    ("line", "read", "module"),
    [
        ("print(x.item())", set(), []),
        ("print(LABEL, t, x.item(), True, None)", {"LABEL", "t"}, ["LABEL"]),
        ("print(STEPS, x.sum().item(), n)", {"STEPS", "n"}, ["STEPS"]),
    ],
)
def test_snapshots_and_constants(line: str, read: set[str], module: list[str]) -> None:
    ctx = context(SOURCE.format(line=line))
    call = print_call(stmt(ctx, "print("))
    assert call is not None
    assert (snapshots(call, printed(call)), constants(ctx, call)) == (read, module)


PRINT = "print(t, x.item())"


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (PRINT, PRINT, ""),
        (PRINT, "print(STEPS, t, x.item())", ""),
        (PRINT, f"y = 1; {PRINT}", "the print is part of a larger statement"),
        (
            PRINT,
            f'{PRINT}\n        print("done")',
            "the loop prints other lines too, whose order would change",
        ),
        (
            PRINT,
            f"{PRINT}\n        yield x",
            "the loop can `return` or `yield` before the lines are printed",
        ),
        (PRINT, "print(n, x.item())", "the print also reads `n`, whose value then is not kept"),
        ("range(n)", "ts", "the print also reads `t`, whose value then is not kept"),
    ],
)
def test_each_problem_says_why(old: str, new: str, problem: str) -> None:
    source = SOURCE.format(line=PRINT)
    assert old in source
    ctx = context(source.replace(old, new))
    printing = stmt(ctx, "print(" if "done" not in new else PRINT)
    loop = ctx.graph.loops[printing.loops[-1]]
    assert replay_problem(ctx, printing, loop, printed(printing.node)) == problem
