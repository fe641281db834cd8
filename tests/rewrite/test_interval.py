"""Device values collected between a host value's reads, flushed into it just before each
read and after the loop (plan: analysis/plans/interval.py)."""

from __future__ import annotations

import textwrap

import pytest

from autoopt.analysis.plans.collect import collect_plan, device_syncs
from autoopt.analysis.plans.interval import IntervalPlan, interval_plan
from autoopt.analysis.values.placement import Placement
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.interval import interval_edits

from ..analysis.helpers import context, stmt

SOURCE = """\
{imports}


@jax.jit
def step(x):
    return x * 2, x.sum()


def main(x):
    {start}
    for t in range(30):
        x, loss = step(x)
        {line}
        if t % 10 == 9:
{reads}
    return x
"""
IMPORTS = "import jax\nimport numpy as np"


def rewrite(
    start: str, line: str, reads: str, taken: set[str], imports: str = IMPORTS
) -> tuple[str, str]:
    """The message and the rewritten module for the conversion collected on `line`."""
    reads = textwrap.indent(textwrap.dedent(reads).strip("\n"), " " * 12)
    ctx = context(SOURCE.format(imports=imports, start=start, line=line, reads=reads))
    collecting = stmt(ctx, line)
    [sync] = device_syncs(ctx, Placement(ctx), collecting)
    collect = collect_plan(ctx, collecting, sync)
    assert collect is not None
    plan = interval_plan(collect)
    assert isinstance(plan, IntervalPlan), plan
    edits, how = interval_edits(plan, taken)
    return how, apply_edits(ctx.module, edits).code


@pytest.mark.parametrize(
    ("taken", "pending"), [(set(), "total_pending"), ({"total_pending"}, "total_pending_2")]
)
def test_a_sum_is_flushed_before_its_reading_lines_and_after_the_loop(
    taken: set[str], pending: str
) -> None:
    how, code = rewrite(
        "total = 0.0", "total += loss.item()", "print(total / 10)\ntotal = 0.0", taken
    )
    assert how == (
        f"collect the device values in `{pending}` and convert them into `total` just "
        "before it is read and after the loop"
    )
    assert (
        code
        == f"""\
import jax
import numpy as np


@jax.jit
def step(x):
    return x * 2, x.sum()


def main(x):
    total = 0.0
    {pending} = []
    for t in range(30):
        x, loss = step(x)
        {pending}.append(loss)
        if t % 10 == 9:
            for value in jax.device_get({pending}):
                total += value.item()
            {pending}.clear()
            print(total / 10)
            total = 0.0
    for value in jax.device_get({pending}):
        total += value.item()
    return x
"""
    )


@pytest.mark.parametrize(
    ("conversion", "extend", "after"),
    [
        (
            "float(loss)",
            "losses.extend(float(value) for value in jax.device_get(losses_pending))",
            "losses.extend(float(value) for value in jax.device_get(losses_pending))",
        ),
        (
            "jax.device_get(loss)",
            "losses.extend(jax.device_get(losses_pending))",
            "losses.extend(jax.device_get(losses_pending))",
        ),
    ],
)
def test_a_list_is_extended_with_the_same_conversions(
    conversion: str, extend: str, after: str
) -> None:
    reads = "print(np.mean(losses[-10:]))\nt = t + 0\nprint(len(losses))"
    _, code = rewrite("losses = []", f"losses.append({conversion})", reads, set())
    assert (
        code
        == f"""\
import jax
import numpy as np


@jax.jit
def step(x):
    return x * 2, x.sum()


def main(x):
    losses = []
    losses_pending = []
    for t in range(30):
        x, loss = step(x)
        losses_pending.append(loss)
        if t % 10 == 9:
            {extend}
            losses_pending.clear()
            print(np.mean(losses[-10:]))
            t = t + 0
            {extend}
            losses_pending.clear()
            print(len(losses))
    {after}
    return x
"""
    )


def test_the_module_spelling_of_device_get_is_used() -> None:
    imports = "import jax\nfrom jax import device_get"
    _, code = rewrite("total = 0", "total += float(loss)", "print(total)", set(), imports=imports)
    flush = "for value in device_get(total_pending):\n{0}    total += float(value)\n"
    assert code.count(flush.format(" " * 12)) == 1  # in the branch
    assert code.count(flush.format(" " * 4)) == 1  # after the loop


def test_a_copy_of_a_value_not_proven_an_array_gets_no_interval_form() -> None:
    """`loss` comes from `step(x)` with `x` of unknown kind, so `np.asarray(loss)` may hold
    `loss` itself (an object array holding a dict): the list is not proven to hold host
    values only, and the interval form is not offered."""
    line = "losses.append(np.asarray(loss, np.float32))"
    reads = " " * 12 + "print(np.mean(losses[-10:]))"
    ctx = context(SOURCE.format(imports=IMPORTS, start="losses = []", line=line, reads=reads))
    collecting = stmt(ctx, line)
    [sync] = device_syncs(ctx, Placement(ctx), collecting)
    collect = collect_plan(ctx, collecting, sync)
    assert collect is not None
    assert interval_plan(collect) == (
        "`losses` is not an empty list set before the loop with nothing between"
    )


def test_a_long_flush_is_wrapped_at_88_columns_as_ruff_format_would() -> None:
    reads = "print(np.mean(train_losses[-10:]))"
    _, code = rewrite("train_losses = []", "train_losses.append(float(loss))", reads, set())
    flush = "train_losses.extend(float(value) for value in jax.device_get(train_losses_pending))"
    assert code == SOURCE.format(
        imports=IMPORTS,
        start="train_losses = []\n    train_losses_pending = []",
        line="train_losses_pending.append(loss)",
        reads="            train_losses.extend(\n"
        "                float(value) for value in jax.device_get(train_losses_pending)\n"
        "            )\n"
        "            train_losses_pending.clear()\n"
        "            print(np.mean(train_losses[-10:]))",
    ).replace("    return x\n", f"    {flush}\n    return x\n")
