"""Collected host conversions kept on the device, converted after the loop (plan:
analysis/plans/collect.py)."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.collect import collect_plan, find_sync, loop_scan
from autoopt.analysis.values.placement import Placement
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.collect import collect_edits, picked

from ..analysis.helpers import context, stmt

SOURCE = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(x):
    return x * 2, x.sum()


def main(x):
    {start}
    for t in range(3):
        x, loss = step(x)
        {line}
    return x
"""
LOOP = "    for t in range(3):\n        x, loss = step(x)\n"


def rewrite(start: str, line: str, taken: set[str]) -> tuple[str, str]:
    """The message and the rewritten module for the conversion collected on `line`."""
    ctx = context(SOURCE.format(start=start, line=line))
    collecting = stmt(ctx, line)
    sync = find_sync(ctx, collecting.calls[-1 if "append" in line else 0])
    assert sync is not None
    plan = collect_plan(ctx, collecting, sync)
    assert plan is not None
    edits, how = collect_edits(plan, taken)
    return how, apply_edits(ctx.module, edits).code


@pytest.mark.parametrize(
    ("conversion", "converted"),
    [
        ("float(loss)", "[float(value) for value in jax.device_get(losses)]"),
        ("loss.item()", "[value.item() for value in jax.device_get(losses)]"),
        ("loss.tolist()", "[value.tolist() for value in jax.device_get(losses)]"),
        ("jax.device_get(loss)", "jax.device_get(losses)"),
    ],
)
def test_a_list_keeps_the_device_values_and_converts_them_after_the_loop(
    conversion: str, converted: str
) -> None:
    how, code = rewrite("losses = []", f"losses.append({conversion})", set())
    assert how == f"keep the device values, then `losses = {converted}` after the loop"
    assert code == SOURCE.format(start="losses = []", line="losses.append(loss)").replace(
        "    return x\n", f"    losses = {converted}\n    return x\n"
    )


@pytest.mark.parametrize(
    ("taken", "parts"), [(set(), "total_parts"), ({"total_parts"}, "total_parts_2")]
)
def test_a_sum_collects_the_device_values_and_adds_them_after_the_loop(
    taken: set[str], parts: str
) -> None:
    how, code = rewrite("total = 0.0", "total += loss.item()", taken)
    assert how == f"collect the device values in `{parts}` and add them to `total` after the loop"
    assert code == SOURCE.format(start="total = 0.0", line=f"{parts}.append(loss)").replace(
        LOOP, f"    {parts} = []\n{LOOP}"
    ).replace("    return x\n", f"    for value in jax.device_get({parts}):\n"
              "        total += value.item()\n    return x\n")  # fmt: skip
    assert parts in taken


@pytest.mark.parametrize(
    ("line", "clause"),
    [
        ("losses.append(float(loss))", ""),
        (
            "if t % 2 == 0:\n            losses.append(float(loss))",
            "for t, {element} in zip(range(3), {source}) if t % 2 == 0",
        ),
    ],
)
def test_picked_keeps_the_steps_a_guarded_append_ran_on(line: str, clause: str) -> None:
    start = "x = jnp.zeros(3)\n    losses = []"  # a carry scan can keep
    ctx = context(SOURCE.format(start=start, line=line))
    scanned = loop_scan(ctx, ctx.graph.loops[0], Placement(ctx))
    assert scanned is not None
    scan, _ = scanned
    assert picked(ctx, scan, scan.collects[0]) == clause


def test_a_copy_of_a_value_not_proven_an_array_is_collected_in_a_list_of_its_own() -> None:
    """`loss` comes from `step(x)` with `x` of unknown kind, so `np.asarray(loss)` may hold
    `loss` itself (`np.asarray` of a dict is an object array holding it): the list gets
    the converted values only after the loop, from a list of its own."""
    how, code = rewrite("losses = []", "losses.append(np.asarray(loss, np.float32))", set())
    assert how == (
        "collect the device values in `losses_parts`, then `losses.extend([np.asarray(value, "
        "np.float32) for value in jax.device_get(losses_parts)])` after the loop"
    )
    assert code == SOURCE.format(start="losses = []", line="losses_parts.append(loss)").replace(
        "    losses = []\n", "    losses = []\n    losses_parts = []\n"
    ).replace(
        "    return x\n",
        "    losses.extend(\n"
        "        [np.asarray(value, np.float32) for value in jax.device_get(losses_parts)]\n"
        "    )\n    return x\n",
    )
