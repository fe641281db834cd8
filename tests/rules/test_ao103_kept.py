"""AO103's whole-loop form of a loop that keeps a value every k steps (`if it % k == 0:
xs.append(v)`): the scan stacks the value every step and the list receives the rows of
the steps where the condition holds. The rewritten programs return what the originals
do, lists included (same length, order, shapes and dtypes), on both paths of the guard."""

from __future__ import annotations

import jax
import pytest

from autoopt.rules.examples import ao103_compiled_loop_step as examples

from .helpers import assert_same, rewrite

KEPT = [case for case in examples.INVALID if "enumerate(range(" in (case.expected or "")]

CHAIKIN = """
import jax.numpy as jnp
import numpy as np


def chaikin(points):
    nxt = jnp.roll(points, -1, axis=0)
    q = 0.75 * points + 0.25 * nxt
    r = 0.25 * points + 0.75 * nxt
    return jnp.stack([q, r], axis=1).reshape(-1, points.shape[1])


def main():
    angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    curve = jnp.asarray(np.stack([np.cos(angles), np.sin(angles)], 1), jnp.float32)
    lengths = []
    for round_ in range(1, 6):
        curve = chaikin(curve)
        if round_ % 2 == 1:
            lengths.append(jnp.sum(curve**2))
    return curve, lengths
"""

OFFSET = """
import jax.numpy as jnp

N_STEPS = 40


def main():
    u = jnp.linspace(0.0, 1.0, 8, dtype=jnp.float32)
    energy, kept, firsts = [], [], []
    for step in range(7, N_STEPS):
        du = jnp.roll(u, 1) - u
        u = u + 0.25 * du
        energy.append(jnp.sum(u**2))
        if step % 5 == 0 or step == 8:
            kept.append(u)
        if step < 10:
            firsts.append(u[0])
    return u, jnp.stack(energy), kept, firsts
"""


def _main(source: str) -> object:
    namespace: dict[str, object] = {"__name__": "kept_snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    return jax.block_until_ready(namespace["main"]())  # type: ignore[operator]


def test_the_examples_cover_the_function_and_module_forms() -> None:
    assert len(KEPT) == 3


@pytest.mark.parametrize("case", KEPT, ids=lambda c: str(KEPT.index(c)))
def test_a_kept_example_computes_what_the_loop_did(case: examples.Invalid) -> None:
    assert case.expected is not None
    assert_same(_main(case.code), _main(case.expected))


def test_rows_of_a_range_that_does_not_start_at_zero() -> None:
    """Two kept lists over `range(7, N)`: the row of step `s` is `s - 7`."""
    result = rewrite(OFFSET, ("AO103",))
    assert (
        "        for i, step in enumerate(range(7, N_STEPS))\n"
        "        if step % 5 == 0 or step == 8\n"
    ) in result.new_source
    assert_same(_main(OFFSET), _main(result.new_source))


def test_the_guard_that_runs_the_steps_keeps_the_same_rows() -> None:
    """Each round doubles the points: the guard runs the loop of steps, which appends
    every round's value, and the list gets the kept rounds' rows, as from the scan."""
    result = rewrite(CHAIKIN, ("AO103",))
    assert "(checked when the loop starts" in result.findings[0].message
    assert "lengths.append(lengths_item)" in result.new_source
    before, after = _main(CHAIKIN), _main(result.new_source)
    assert len(before[1]) == 3  # type: ignore[index]
    assert_same(before, after)
