"""AO103's whole-loop form of a counted `while`: `i = 0; while i < N: <step>; i += 1`
runs as one jitted `lax.scan` of the step (or the guarded scan), and the counter is set
to the value the loop leaves. Every premise not proven keeps the step form and is named
in the message; the rewritten programs compute what the originals did."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import assert_same, rewrite, run_main, run_snippet
from .test_ao103_guarded import run_program

NNLS = """
import jax.numpy as jnp
import numpy as np

MAX_ITERS = 40


def objective(x, a, b):
    return 0.5 * jnp.sum((a @ x - b) ** 2)


def main():
    rng = np.random.default_rng(0)
    a = jnp.asarray(rng.uniform(size=(10, 4)), dtype=jnp.float32)
    b = jnp.asarray(rng.uniform(size=(10, 3)), dtype=jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    trace = []
    iteration = 0
    while iteration < MAX_ITERS:
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        trace.append(objective(x, a, b))
        iteration += 1
    return x, jnp.stack(trace), iteration
"""

NNLS_SCAN = """
import jax
import jax.numpy as jnp
import numpy as np

MAX_ITERS = 40


def objective(x, a, b):
    return 0.5 * jnp.sum((a @ x - b) ** 2)


@functools.partial(jax.jit, donate_argnames=("x",))
def _main_loop(x, a, b):
    def body(x, _):
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        trace_item = objective(x, a, b)
        return x, trace_item

    return jax.lax.scan(body, x, length=MAX_ITERS)


def main():
    rng = np.random.default_rng(0)
    a = jnp.asarray(rng.uniform(size=(10, 4)), dtype=jnp.float32)
    b = jnp.asarray(rng.uniform(size=(10, 3)), dtype=jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    trace = []
    iteration = 0
    x, trace = _main_loop(x, a, b)
    iteration = MAX_ITERS
    return x, jnp.stack(trace), iteration
"""


def run(tmp_path: Path, name: str, source: str) -> object:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return run_main(path, f"while_{name}_{abs(hash(source))}")


def test_the_counted_while_runs_as_one_scan_and_leaves_the_counter(tmp_path: Path) -> None:
    result = rewrite(NNLS, ("AO103",))
    [finding] = result.findings
    assert finding.fix.value == "safe"
    assert "run the whole loop as one jitted `lax.scan`, `_main_loop`" in finding.message
    expected = NNLS_SCAN.replace("\nimport jax\n", "\nimport functools\n\nimport jax\n", 1)
    expected = expected.replace(
        "    return x, jnp.stack(trace), iteration", "    return x, trace, iteration"
    )
    assert result.new_source == expected
    assert rewrite(result.new_source, ("AO103",)).new_source == expected
    before, after = run(tmp_path, "nnls", NNLS), run(tmp_path, "nnls_scan", expected)
    assert after[2] == before[2] == 40
    assert_same(before, after)


@pytest.mark.parametrize(
    ("header", "start", "length", "left"),
    [
        ("iteration <= MAX_ITERS", "0", "MAX_ITERS + 1", "MAX_ITERS + 1"),
        ("MAX_ITERS > iteration", "0", "MAX_ITERS", "MAX_ITERS"),
        ("iteration < MAX_ITERS", "3", "MAX_ITERS - 3", "MAX_ITERS"),
        ("iteration <= MAX_ITERS", "1", "MAX_ITERS", "MAX_ITERS + 1"),
        ("iteration < 12", "2", "10", "12"),
        ("iteration <= 12", "0", "13", "13"),
    ],
)
def test_bounds_and_the_value_the_counter_is_left(
    tmp_path: Path, header: str, start: str, length: str, left: str
) -> None:
    """`<=` runs BOUND - start + 1 times and leaves BOUND + 1; `<` leaves BOUND."""
    source = NNLS.replace("iteration < MAX_ITERS", header).replace(
        "iteration = 0", f"iteration = {start}"
    )
    result = rewrite(source, ("AO103",))
    assert f"length={length})" in result.new_source
    assert f"    iteration = {left}\n" in result.new_source
    before, after = run(tmp_path, "bounds", source), run(tmp_path, "bounds_scan", result.new_source)
    assert before[2] == after[2]
    assert_same(before, after)


GUARDED = NNLS.replace(
    "b = jnp.asarray(rng.uniform(size=(10, 3)), dtype=jnp.float32)",
    "b = jnp.asarray(rng.uniform(size=(10, 3)))  # float64 under x64",
)


@pytest.mark.parametrize(("x64", "scans"), [(False, [False]), (True, [True])])
def test_the_guarded_form_of_a_counted_while(tmp_path: Path, x64: bool, scans: list[bool]) -> None:
    """A float32 carry meets default-float data: the guard runs the scan with x64 off;
    with x64 on the first step makes the carry float64 and the second keeps it, so the
    scan runs its first step apart (the while loop of steps, its counter started again
    inside the guard, is written too)."""
    result = rewrite(GUARDED, ("AO103",))
    assert "(checked when the loop starts" in result.findings[0].message
    assert "    iteration = 0\n    while iteration < MAX_ITERS:\n" in result.new_source
    assert "    iteration = MAX_ITERS\n" in result.new_source
    before, _ = run_program(tmp_path, "original", GUARDED, x64)
    after, ran = run_program(tmp_path, "rewritten", result.new_source, x64)
    assert ran == scans
    assert_same(before, after, rtol=1e-9 if x64 else 1e-4)


MODULE = """
import jax.numpy as jnp

N_STEPS = 6
u = jnp.sin(jnp.arange(5.0))
energy = []
step = 0
while step < N_STEPS:
    lap = jnp.roll(u, 1) + jnp.roll(u, -1) - 2 * u
    u = u + 0.1 * lap
    energy.append(jnp.sum(u**2))
    step += 1
result = u, lap, jnp.stack(energy), len(energy), step
"""


def test_a_module_level_counted_while() -> None:
    result = rewrite(MODULE, ("AO103",))
    assert "(u, lap), energy_items = _loop(u)\n" in result.new_source
    assert "\nstep = N_STEPS\n" in result.new_source
    assert_same(run_snippet(MODULE), run_snippet(result.new_source))


def _swap(old: str, new: str) -> str:
    assert old in NNLS
    return NNLS.replace(old, new)


KEEPS_THE_STEP = [
    # the counter read in the body
    (
        _swap("x = x - 0.01 * gradient", "x = x - 0.01 * gradient / (iteration + 1)"),
        "reads or rebinds the counter `iteration`",
    ),
    # incremented by 2
    (_swap("iteration += 1", "iteration += 2"), "is not `iteration += 1`"),
    # incremented before the end of the body
    (
        _swap(
            "        trace.append(objective(x, a, b))\n        iteration += 1\n",
            "        iteration += 1\n        trace.append(objective(x, a, b))\n",
        ),
        "the loop's last statement is not `iteration += 1`",
    ),
    # a `break`
    (
        _swap(
            "        iteration += 1\n",
            "        if iteration == 7:\n            break\n        iteration += 1\n",
        ),
        "",
    ),
    # the condition on a traced value
    (_swap("while iteration < MAX_ITERS:", "while jnp.asarray(iteration) < MAX_ITERS:"), ""),
    (
        _swap("while iteration < MAX_ITERS:", "while iteration < jnp.asarray(MAX_ITERS):"),
        "bound is not an integer literal or module constant",
    ),
    (
        _swap("while iteration < MAX_ITERS:", "while iteration < MAX_ITERS and jnp.sum(x) > -1.0:"),
        "",
    ),
    # zero trips: scan would still trace the body
    (
        _swap("MAX_ITERS = 40", "MAX_ITERS = 0").replace("jnp.stack(trace)", "len(trace)"),
        "the loop runs no iteration",
    ),
    (
        _swap("iteration = 0", "iteration = 40").replace("jnp.stack(trace)", "len(trace)"),
        "the loop runs no iteration",
    ),
    # the counter rebound in the body
    (
        _swap(
            "x = x - 0.01 * gradient", "x = x - 0.01 * gradient\n        iteration = iteration + 0"
        ),
        "",  # a Python int the step would return: no step at all
    ),
    # the start not a literal, or bound on some paths only
    (_swap("iteration = 0", "iteration = len(trace)"), "is not bound once before the loop"),
    (
        _swap(
            "    iteration = 0\n",
            "    iteration = 0\n    if a.shape[0] > 3:\n        iteration = 5\n",
        ),
        "is not bound once before the loop",
    ),
    # a nested function the body calls reads the counter
    (
        _swap(
            "    iteration = 0\n",
            "    iteration = 0\n\n    def rate():\n        return 0.01 / (iteration + 1)\n\n",
        ).replace("x = x - 0.01 * gradient", "x = x - rate() * gradient"),
        "",
    ),
]


@pytest.mark.parametrize(("source", "why"), KEEPS_THE_STEP)
def test_while_loops_that_keep_the_step_form(tmp_path: Path, source: str, why: str) -> None:
    result = rewrite(source, ("AO103",))
    assert "lax.scan" not in result.new_source
    assert why in " ".join(f.message for f in result.findings)
    if why and result.findings:
        assert "not the whole loop as one `lax.scan`" in result.findings[0].message
    assert_same(run(tmp_path, "kept", source), run(tmp_path, "kept_step", result.new_source))
