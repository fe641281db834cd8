"""AO103: the compiled step computes what the loop did, and owns its loop."""

from __future__ import annotations

import pytest

from autoopt.api import check_source
from autoopt.rules import BY_ID

from .helpers import assert_same, rewrite, run_snippet

STEPS = [
    """
import jax.numpy as jnp
def cell(w, h, x):
    return jnp.tanh(h @ w + x)
def run(w, xs):
    h = jnp.zeros(4)
    out = jnp.zeros((xs.shape[0], 4))
    for t in range(xs.shape[0]):
        h = cell(w, h, xs[t])
        out = out.at[t].set(h)
    return out, h
result = run(jnp.eye(4) * 0.5, jnp.arange(12.0).reshape(3, 4) / 10)
""",
    """
import jax.numpy as jnp
w = jnp.ones(3)
target = jnp.arange(3.0)
for _ in range(10):
    grad = 2 * (w - target)
    w = w - 0.1 * grad
result = w
""",
    """
from typing import NamedTuple
import jax.numpy as jnp
class State(NamedTuple):
    pos: jnp.ndarray
    vel: jnp.ndarray
def simulate(state, steps):
    for _ in range(steps):
        vel = state.vel - 0.01 * state.pos
        state = State(state.pos + 0.01 * vel, vel)
    return state
result = tuple(simulate(State(jnp.ones(3), jnp.zeros(3)), 50))  # each run defines its own State
""",
    """
import jax.numpy as jnp
def smooth(x, steps):
    history = [x]
    for _ in range(steps):
        dx = jnp.roll(x, 1) - x
        x = x + 0.5 * dx
    history.append(x)
    return history
result = smooth(jnp.arange(8.0), 10)
""",
]


TWO_LOOPS = """
import jax.numpy as jnp
def run(x, y):
    for _ in range(3):
        d = jnp.sin(x)
        x = x + d
    for _ in range(3):
        e = jnp.cos(y)
        y = y * e
    return x, y
result = run(jnp.ones(3), jnp.ones(3))
"""


def test_two_steps_of_one_function_get_two_names() -> None:
    """Both are inserted at module level: one name would make the first loop call the
    second step."""
    result = rewrite(TWO_LOOPS, ("AO103",))
    assert [f.message.split("one jitted step, `")[1].split("`")[0] for f in result.findings] == [
        "_run_step",
        "_run_step_2",
    ]
    assert "x = _run_step(x)" in result.new_source
    assert "y = _run_step_2(y)" in result.new_source
    assert_same(run_snippet(TWO_LOOPS), run_snippet(result.new_source))


@pytest.mark.parametrize("source", STEPS)
def test_step_computes_what_the_loop_did(source: str) -> None:
    result = rewrite(source, ("AO103",))
    assert [f.fix.value for f in result.findings] == ["safe"]
    assert "jax.jit" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))


def test_a_proven_step_owns_its_loop() -> None:
    """AO401 would move the `.at` update into a donating helper; inside the step the
    update is in place already, so only AO103 fixes the loop (AO101 still jits `cell`)."""
    _, findings = check_source(STEPS[0])
    assert sorted((f.rule, f.fix.value) for f in findings) == [
        ("AO101", "safe"),
        ("AO103", "safe"),
        ("AO201", "unsafe"),
    ]


def test_an_unproven_step_leaves_the_per_statement_fixes() -> None:
    """`xs` is a NumPy array: the step would receive it converted (float64 to float32)."""
    source = (
        STEPS[0]
        .replace("jnp.arange(12.0)", "np.arange(12.0)")
        .replace("import jax.numpy as jnp", "import jax.numpy as jnp\nimport numpy as np")
    )
    _, findings = check_source(source)
    rules = {f.rule: f.fix.value for f in findings}
    assert rules["AO103"] == "none"
    assert rules["AO401"] == "safe"


def test_rule_is_registered() -> None:
    assert BY_ID["AO103"].name == "compiled-loop-step"


SCANNED = """
import jax.numpy as jnp
STEPS = 40
def lap(u, dx):
    return (jnp.roll(u, -1) - 2 * u + jnp.roll(u, 1)) / dx**2
def heat(u0):
    u = jnp.asarray(u0, dtype=jnp.float32)
    v = jnp.zeros(8)
    energy, peaks = [], [jnp.max(u)]
    for _ in range(STEPS):
        du = lap(u, 0.5)
        u = u + 0.01 * du
        v = 0.9 * v + 1.0
        energy.append(jnp.sum(u**2))
        peaks.append(jnp.max(u))
    return u, v, jnp.stack(energy), peaks
result = heat(jnp.sin(jnp.arange(8.0)))
"""


def test_whole_loop_runs_as_one_scan_and_computes_what_the_loop_did() -> None:
    """`energy`, empty before the loop and only stacked after it, takes the stacked
    values; `peaks`, which starts with one value, receives one row per iteration;
    `v`, carried with the default float dtype, keeps its type too."""
    result = rewrite(SCANNED, ("AO103",))
    assert [(f.fix.value, f.message) for f in result.findings] == [
        (
            "safe",
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop as "
            "one jitted `lax.scan`, `_heat_loop`, donating `v`",
        )
    ]
    assert (
        "    (u, v), (energy, peaks_items) = _heat_loop(u, v)\n"
        "    peaks.extend(peaks_items)\n"
        "    return u, v, energy, peaks\n"
    ) in result.new_source
    assert "        return (u, v), (energy_item, peaks_item)\n" in result.new_source
    assert "    return jax.lax.scan(body, (u, v), length=STEPS)\n" in result.new_source
    assert_same(run_snippet(SCANNED), run_snippet(result.new_source))


def test_a_list_read_otherwise_receives_the_rows() -> None:
    source = SCANNED.replace("jnp.stack(energy), peaks", "jnp.stack(energy), len(energy), peaks")
    result = rewrite(source, ("AO103",))
    assert "    energy.extend(energy_items)\n" in result.new_source
    assert "jnp.stack(energy), len(energy)" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))


NOT_SCANNED = [
    # two values appended to one list per iteration: they must stay interleaved
    (SCANNED.replace("peaks.append(jnp.max(u))", "energy.append(jnp.max(u))"), "`_heat_step`"),
    # a tuple appended: scan would stack each leaf
    (SCANNED.replace("peaks.append(jnp.max(u))", "peaks.append((u, v))"), "`_heat_step`"),
    # the count is not known statically
    (SCANNED.replace("range(STEPS)", "range(len(u0))"), "`_heat_step`"),
    # no iteration at all: scan would still trace its body
    (
        SCANNED.replace("STEPS = 40", "STEPS = 0").replace("jnp.stack(energy)", "energy"),
        "`_heat_step`",
    ),
    # a name of the last iteration is read after the loop
    (SCANNED.replace("return u, v,", "return du, u, v,"), "`_heat_step`"),
    # the loop variable is read after the loop
    (SCANNED.replace("for _ in", "for t in").replace("return u, v,", "return t, u, v,"), ""),
    # an integer carry times a Python float becomes a float: scan would raise
    (
        SCANNED.replace("jnp.asarray(u0, dtype=jnp.float32)", "jnp.asarray(u0, dtype=jnp.int32)"),
        "`_heat_step`",
    ),
    # a carry whose dtype the analysis does not know
    (SCANNED.replace("jnp.asarray(u0, dtype=jnp.float32)", "u0"), "`_heat_step`"),
]


@pytest.mark.parametrize(("source", "step"), NOT_SCANNED)
def test_loops_that_stay_a_step(source: str, step: str) -> None:
    """Each premise of the scan form unproven: the loop keeps the step form, which
    computes what the loop did."""
    result = rewrite(source, ("AO103",))
    assert [f.fix.value for f in result.findings] == ["safe"]
    assert step in result.findings[0].message and "lax.scan" not in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))


def test_the_step_names_the_scan_premise_it_lacks() -> None:
    source = SCANNED.replace(
        "jnp.asarray(u0, dtype=jnp.float32)", "jnp.asarray(u0, dtype=jnp.int32)"
    )
    (finding,) = rewrite(source, ("AO103",)).findings
    assert finding.message.endswith(
        "; not the whole loop as one `lax.scan`: cannot prove `u` is a floating-point array, "
        "whose dtype Python numbers keep"
    )


NESTED = """
import jax.numpy as jnp
def run(u0):
    u = jnp.asarray(u0, dtype=jnp.float32)
    xs = []
    for _ in range(3):
        for _ in range(5):
            u = jnp.roll(u, 1) * 0.9
            xs.append(jnp.sum(u))
        u = jnp.asarray(u + 1.0, dtype=jnp.float32)
    return u, jnp.stack(xs)
result = run(jnp.arange(4.0))
"""


def test_a_list_an_enclosing_loop_fills_receives_rows_each_time() -> None:
    """The inner loop runs three times into one list: each run's stacked values are
    added to it, not put in its place."""
    result = rewrite(NESTED, ("AO103",))
    assert "xs.extend(xs_items)" in result.new_source
    assert_same(run_snippet(NESTED), run_snippet(result.new_source))


def test_a_carry_an_enclosing_loop_changes_is_not_proven() -> None:
    """The outer loop makes `u` an integer array after the first inner run: the inner
    loop's entry type is the join of both, not floating."""
    source = NESTED.replace(
        "jnp.asarray(u + 1.0, dtype=jnp.float32)", "jnp.round(u).astype(jnp.int32)"
    )
    result = rewrite(source, ("AO103",))
    assert "lax.scan" not in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))
