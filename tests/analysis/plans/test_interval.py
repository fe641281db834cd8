"""Can a host value read at an interval collect device values between its reads?"""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.collect import CONTROL, collect_plan, device_syncs
from autoopt.analysis.plans.interval import IntervalPlan, interval_plan
from autoopt.analysis.values.placement import Placement

from ..helpers import HEADER, context, stmt

SUM = """
@jax.jit
def step(x):
    return x * 2, x.sum()

def main(n):
    x = jnp.zeros(3)
    total = 0.0
    for t in range(n):
        x, loss = step(x)
        total += loss.item()
        if t % 10 == 9:
            print(total / 10)
            total = 0.0
    return x, total
"""
LINE = "total += loss.item()"
LIST = (
    SUM.replace("total = 0.0\n    for", "losses = []\n    for")
    .replace(LINE, "losses.append(float(loss))")
    .replace("print(total / 10)\n            total = 0.0", "print(np.mean(losses[-10:]))")
    .replace("return x, total", "return x, losses")
)
APPEND = "losses.append(float(loss))"


def edit(old: str, new: str, code: str = SUM) -> str:
    assert old in code
    return code.replace(old, new)


def plan(code: str, line: str = LINE) -> IntervalPlan | str:
    ctx = context(code, HEADER)
    collecting = stmt(ctx, line)
    [sync] = device_syncs(ctx, Placement(ctx), collecting)
    collect = collect_plan(ctx, collecting, sync)
    assert collect is not None
    return interval_plan(collect)


def flushed(found: IntervalPlan | str) -> list[str]:
    """The first line of code of each statement flushed before."""
    assert isinstance(found, IntervalPlan), found
    ctx = found.collect.ctx
    return [ctx.code(line).strip().splitlines()[0] for line in found.flushes]


def test_a_sum_read_in_an_if_is_flushed_once_before_its_reading_lines() -> None:
    found = plan(SUM)
    assert flushed(found) == ["print(total / 10)"]
    assert isinstance(found, IntervalPlan) and found.unproven == ""


def test_a_list_read_in_an_if_is_flushed_before_the_print() -> None:
    found = plan(LIST, APPEND)
    assert flushed(found) == ["print(np.mean(losses[-10:]))"]
    assert isinstance(found, IntervalPlan) and found.unproven == ""


def test_a_line_between_two_reading_lines_starts_a_second_flush() -> None:
    code = edit("            total = 0.0", "            t = t + 0\n            total = 0.0")
    assert flushed(plan(code)) == ["print(total / 10)", "total = 0.0"]


def test_reads_in_both_branches_are_flushed_in_each() -> None:
    reset = "            total = 0.0"
    code = edit(reset, f"{reset}\n        else:\n            print(0, total)")
    assert flushed(plan(code)) == ["print(total / 10)", "print(0, total)"]


def test_statements_between_the_start_and_the_loop_that_leave_it_alone() -> None:
    code = edit("    total = 0.0\n", "    total = 0.0\n    y = jnp.ones(2)\n    n = n + 0\n")
    assert flushed(plan(code)) == ["print(total / 10)"]


MODULE_LEVEL = """
@jax.jit
def step(x):
    return x * 2, x.sum()

x = jnp.zeros(3)
total = 0.0
for t in range(30):
    x, loss = step(x)
    total += loss.item()
    if t % 10 == 9:
        print(total)
"""


@pytest.mark.parametrize(
    ("code", "unproven"),
    [
        (
            edit("    for t", "    with open('log') as log:\n      for t").replace(
                "\n        ", "\n          "
            ),
            "a `with` around the loop could swallow an exception that skipped the flush, "
            "leaving `total` without its last values",
        ),
        (
            MODULE_LEVEL,
            "an exception (Ctrl-C) leaving the loop leaves `total`, which outlives the "
            "function, without its last values",
        ),
        (
            edit("def main(n):\n", "def main(n):\n    global total\n"),
            "an exception (Ctrl-C) leaving the loop leaves `total`, which outlives the "
            "function, without its last values",
        ),
    ],
)
def test_an_exception_path_others_may_read_leaves_the_fix_unproven(
    code: str, unproven: str
) -> None:
    found = plan(code)
    assert isinstance(found, IntervalPlan), found
    assert found.unproven == unproven


HELPER = edit(
    "def main(n):\n",
    "def main(n):\n    def show():\n        print(total)\n\n",
    edit("print(total / 10)", "show()"),
)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (edit("if t % 10 == 9:", "if total > 10:"), CONTROL),
        (
            edit(
                "        if t % 10 == 9:\n            print",
                "        if t % 10 == 9:\n            pass\n        print",
            ).replace("            total = 0.0\n", ""),
            "`total` is read at line 16 on every step the loop collects it",
        ),
        (
            edit(
                f"        {LINE}\n        if t % 10 == 9:\n",
                f"        if t % 10 == 9:\n            {LINE}\n",
            ),
            "`total` is read at line 15 on every step the loop collects it",
        ),
        (
            edit("def main(n):", "def main(n, verbose=True):", edit("t % 10 == 9", "verbose")),
            "`total` is read at line 15 under `if verbose`, whose test the loop does not change",
        ),
        (edit(LINE, f"{LINE}; y = total"), "`total` is read on the line that collects it"),
        (
            edit(LINE, f"{LINE}\n        total += x.sum().item()"),
            "`total` is also collected at line 14",
        ),
        (
            edit(
                "            print(total / 10)\n", "            for k in range(2): print(total)\n"
            ),
            "`total` is read at line 15 by a statement that cannot be flushed before",
        ),
        (
            edit(
                "        if t % 10 == 9:\n            print(total / 10)\n            total = 0.0",
                "        if t % 10 == 9: print(total)",
            ),
            "`total` is read at line 14 by a statement that cannot be flushed before",
        ),
        (
            edit("    return x, total", "    else:\n        print(total)\n    return x, total"),
            "`total` is read in the loop's `else`, before the values are converted",
        ),
        (
            HELPER,
            "the function `show` reads `total` and could run during the loop",
        ),
        (
            edit("            total = 0.0", "            return x, total"),
            "the loop can `return` or `yield` before the values are converted",
        ),
        (
            edit(
                f"        {LINE}",
                f"        try:\n            {LINE}\n        except ValueError:\n            pass",
            ),
            "the conversion is inside a `try` of the loop, which could handle its error",
        ),
        (
            edit("    for t", "    try:\n      for t")
            .replace("\n        ", "\n          ")
            .replace(
                "    return x, total",
                "    except KeyboardInterrupt:\n        print(total)\n    return x, total",
            ),
            "an exception leaving the loop would skip the flush before an enclosing `try`",
        ),
        (
            edit("total = 0.0\n    for", "total = None\n    for"),
            "`total` is not a number set before the loop with nothing between",
        ),
        (
            edit("    total = 0.0\n", "    total = 0.0\n    print(total)\n"),
            "`total` is not a number set before the loop with nothing between",
        ),
        (
            edit("print(np.mean(losses[-10:]))", "losses = losses[-5:]", LIST),
            "`losses` is rebound at line 15 to a value not proven an empty list",
        ),
        (
            edit("            total = 0.0", "            total = None"),
            "`total` is rebound at line 16 to a value not proven a number",
        ),
        (
            edit("            total = 0.0", "            del total"),
            "`total` is deleted in the loop, so a later collection would fail later",
        ),
    ],
)
def test_each_failing_premise_says_why(code: str, expected: str) -> None:
    line = APPEND if "losses" in code else LINE
    assert plan(code, line) == expected


def test_a_kept_value_a_later_call_could_donate() -> None:
    code = edit(LINE, "total += float(x[0])\n        x = step(x)[0]")
    assert plan(code, "total += float(x[0])") == (
        "`x` is replaced by a call in the loop that could donate it, so keeping it on the "
        "device is not proven safe"
    )
