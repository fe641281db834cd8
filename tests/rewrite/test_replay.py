"""Replaying a loop's prints after it: the premises, and the code."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from autoopt.analysis.core.walk import walk
from autoopt.analysis.plans.replay import Printed, replay_problem
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.replay import replay_edits

from ..analysis.helpers import context, stmt

PRINT = 'print(f"step {t}: {x.mean().item():.4f}")'
SOURCE = f"""\
import jax

STEPS = 3
LABEL = "loss"

@jax.jit
def step(x):
    return x * 2

def main(x, n):
    for t in range(n):
        x = step(x)
        {PRINT}
    return x
"""


def replay(source: str, line: str, taken: set[str] | None = None) -> str:
    """The problem, or the message and the rewritten module, for the print on `line`,
    whose `<value>.item()` conversion reads a device value."""
    ctx = context(source)
    printing = stmt(ctx, line)
    loop = ctx.graph.loops[printing.loops[-1]]
    calls = [
        c
        for c in walk(printing.node)
        if isinstance(c, cst.Call)
        and isinstance(c.func, cst.Attribute)
        and c.func.attr.value == "item"
    ]
    printed = [Printed(c, c.func.value, lambda e: f"{e}.item()") for c in calls]  # type: ignore[attr-defined]
    problem = replay_problem(ctx, printing, loop, printed)
    if problem:
        return problem
    edits, message = replay_edits(ctx, printing, loop, printed, set() if taken is None else taken)
    return f"{message}\n{apply_edits(ctx.module, edits).code}"


MESSAGE = "record the printed values in `printed` and print the same lines after the loop\n"


def test_the_prints_are_recorded_and_replayed_after_the_loop() -> None:
    assert replay(SOURCE, "print(") == MESSAGE + SOURCE.replace(
        f"    for t in range(n):\n        x = step(x)\n        {PRINT}\n",
        textwrap.indent(
            textwrap.dedent(
                """\
                printed = []
                for t in range(n):
                    x = step(x)
                    printed.append((t, x.mean()))
                for t_printed, value in jax.device_get(printed):
                    print(f"step {t_printed}: {value.item():.4f}")
                """
            ),
            "    ",
        ),
    )


@pytest.mark.parametrize(
    ("line", "record", "replayed"),
    [
        (
            "print(LABEL, STEPS, t, x.mean().item())",
            "printed.append((t, x.mean()))",
            "for t_printed, value in jax.device_get(printed):\n"
            "        print(LABEL, STEPS, t_printed, value.item())",
        ),
        (
            "print(x.mean().item())",
            "printed.append((x.mean(),))",
            "for (value,) in jax.device_get(printed):\n        print(value.item())",
        ),
        (
            "print(x.item(), x.sum().item(), True)",
            "printed.append((x, x.sum()))",
            "for value, value_2 in jax.device_get(printed):\n"
            "        print(value.item(), value_2.item(), True)",
        ),
    ],
)
def test_module_constants_are_read_again_and_the_index_is_recorded(line, record, replayed) -> None:
    code = replay(SOURCE.replace(PRINT, line), "print(")
    assert f"        {record}\n    {replayed}\n    return x\n" in code


def test_names_already_taken_get_a_suffix() -> None:
    source = SOURCE.replace("def main(x, n):", "def main(x, n):\n    printed = value = None")
    code = replay(source, "print(", taken={"printed_2"})
    assert code.startswith("record the printed values in `printed_3`")
    assert "    for t_printed, value_2 in jax.device_get(printed_3):\n" in code


@pytest.mark.parametrize(
    ("old", "new", "line", "problem"),
    [
        (PRINT, f"if t: {PRINT}", "print(", "the print is part of a larger statement"),
        (PRINT, f"y = 1; {PRINT}", "print(", "the print is part of a larger statement"),
        (
            PRINT,
            f'{PRINT}\n        print("done")',
            "print(f",
            "the loop prints other lines too, whose order would change",
        ),
        (
            PRINT,
            f"{PRINT}\n        if t > 5:\n            return x",
            "print(",
            "the loop can `return` or `yield` before the lines are printed",
        ),
        (
            PRINT,
            "name = str(t)\n        print(name, x.mean().item())",
            "print(",
            "the print also reads `name`, whose value then is not kept",
        ),
        (
            "for t in range(n):",
            "for t in ts:",
            "print(",
            "the print also reads `t`, whose value then is not kept",
        ),  # not a range index
    ],
)
def test_each_problem_says_why(old: str, new: str, line: str, problem: str) -> None:
    assert replay(SOURCE.replace(old, new), line) == problem
