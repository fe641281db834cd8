"""AO103: the compiled step computes what the loop did, and owns its loop."""

from __future__ import annotations

import re
import types

import jax
import pytest

from autoopt.api import check_source, optimize_source
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
    steps = [re.findall(r"`(_run_step(?:_2)?)`", f.message) for f in result.findings]
    assert steps == [["_run_step"], ["_run_step_2"]]
    assert "        x = _run_step(x)\n" in result.new_source
    assert "        y = _run_step_2(y)\n" in result.new_source
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
    # (a carry of an unproven type: tests/rules/test_ao103_guarded.py)
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
    source = SCANNED.replace("for _ in", "for t in").replace("return u, v,", "return t, u, v,")
    (finding,) = rewrite(source, ("AO103",)).findings
    assert finding.message.endswith(
        "; not the whole loop as one `lax.scan`: the loop variable `t` is read outside the "
        "loop (`lax.scan` binds none)"
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


def test_a_carry_an_enclosing_loop_changes_is_checked_each_time() -> None:
    """The outer loop makes `u` an integer array after the first inner run: the inner
    loop's entry type is the join of both, not floating, so the guard checks it each
    time the inner loop starts (a scan the first time, steps after)."""
    source = NESTED.replace(
        "jnp.asarray(u + 1.0, dtype=jnp.float32)", "jnp.round(u).astype(jnp.int32)"
    )
    result = rewrite(source, ("AO103",))
    assert "        u, xs_items = _run_loop(u)\n" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))


SCRIPT = """
import jax.numpy as jnp
import numpy as np

N_STEPS = 40
interior = np.zeros((8, 8), np.float32)
interior[1:-1, 1:-1] = 1.0
mask = jnp.asarray(interior)
blur = jnp.eye(8, dtype=jnp.float32) * 0.5
u_prev = jnp.asarray(np.linspace(0.0, 1.0, 64).reshape(8, 8).astype(np.float32)) * mask
u = u_prev
probe = []
for _ in range(N_STEPS):
    lap = jnp.roll(u, 1, axis=0) + jnp.roll(u, -1, axis=1) - 2.0 * u
    u_next = (2.0 * u - u_prev + 0.2 * lap) * mask
    u_prev, u = u, u_next
    probe.append(u[3, 4])

signal = jnp.stack(probe)


def report():
    return lap, u_next
"""


def module_globals(source: str) -> dict[str, object]:
    """Run `source` as a module; the values it leaves as globals (not modules, functions
    or classes)."""
    namespace: dict[str, object] = {"__name__": "script"}
    exec(compile(source, "<script>", "exec"), namespace)
    skip = (types.ModuleType, types.FunctionType, type)
    values = {
        k: v for k, v in namespace.items() if not k.startswith("__") and not isinstance(v, skip)
    }
    return jax.block_until_ready(values)


def assert_same_globals(before: dict[str, object], after: dict[str, object]) -> None:
    """Every global the original leaves has the same value after the rewrite: same type
    (a list stays a list), same shapes, dtypes and values (new helper names may be
    added)."""
    assert set(before) <= set(after), set(before) - set(after)
    for name, value in before.items():
        assert type(after[name]) is type(value), (name, type(value), type(after[name]))
        if isinstance(value, list):
            assert len(after[name]) == len(value), name  # type: ignore[arg-type]
        assert_same(value, after[name])


def test_module_loop_runs_as_one_scan_and_leaves_every_global() -> None:
    """The temporaries `lap` and `u_next` are carried from placeholders of `u`'s type;
    `_` gets its last value; `probe` stays a list of the appended values, and only
    `jnp.stack(probe)` takes the stacked array."""
    result = rewrite(SCRIPT, ("AO103",))
    assert [(f.fix.value, f.message) for f in result.findings] == [
        (
            "safe",
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop as "
            "one jitted `lax.scan`, `_loop`; it carries `lap`, `u_next` too, for the last "
            "values the loop leaves as globals",
        )
    ]
    assert (
        "    return jax.lax.scan(\n"
        "        body, (u, u_prev, jnp.zeros_like(u), jnp.zeros_like(u)), length=N_STEPS\n"
        "    )\n"
        "\n"
        "\n"
        "(u, u_prev, lap, u_next), probe_items = _loop(u, u_prev)\n"
        "probe.extend(probe_items[i] for i in range(N_STEPS))\n"
        "_ = N_STEPS - 1\n"
        "\n"
        "signal = probe_items\n"
    ) in result.new_source
    assert_same_globals(module_globals(SCRIPT), module_globals(result.new_source))


MODULE_NOT_SCANNED = [
    # a temporary whose type is not proven a carried name's (a matrix product)
    (
        SCRIPT.replace("    probe.append", "    flux = blur @ u\n    probe.append"),
        "cannot prove `flux` has the shape and dtype of a carried name",
    ),
    # a temporary of another shape, read by a function after the loop
    (
        SCRIPT.replace(
            "    probe.append", "    peak = jnp.max(jnp.abs(u))\n    probe.append"
        ).replace("return lap, u_next", "return lap, u_next, peak"),
        "cannot prove `peak` has the shape and dtype of a carried name",
    ),
    # no iteration at all: the temporaries stay unbound, scan would trace its body
    (SCRIPT.replace("N_STEPS = 40", "N_STEPS = 0").replace("jnp.stack(probe)", "len(probe)"), ""),
    # the loop variable is read after the loop
    (
        SCRIPT.replace("for _ in", "for step in").replace(
            "signal = jnp.stack(probe)", "signal = jnp.stack(probe)\nlast_step = step"
        ),
        "the loop variable `step` is read outside the loop",
    ),
    # ... or by a function
    (
        SCRIPT.replace("for _ in", "for step in").replace("return lap,", "return step, lap,"),
        "the loop variable `step` is read outside the loop",
    ),
]


@pytest.mark.parametrize(("source", "why"), MODULE_NOT_SCANNED)
def test_module_loops_that_stay_a_step(source: str, why: str) -> None:
    """A premise of the module-level scan unproven: the loop keeps the step form, says
    which premise, and leaves every global as the loop did."""
    result = rewrite(source, ("AO103",))
    assert [f.fix.value for f in result.findings] == ["safe"]
    assert "`_step`" in result.findings[0].message and why in result.findings[0].message
    assert "lax.scan" not in result.new_source
    assert_same_globals(module_globals(source), module_globals(result.new_source))


CARRY_NOT_PROVEN = [
    # the loop multiplies by `rows`, which broadcasts `u` to another shape: only the
    # array `u` was combined with before the loop is absorbed
    (
        SCRIPT.replace(
            "blur = jnp.eye(8, dtype=jnp.float32) * 0.5",
            "blur = jnp.eye(8, dtype=jnp.float32) * 0.5\nrows = jnp.ones((3, 8, 8))",
        ).replace(") * mask\n    u_prev, u", ") * rows\n    u_prev, u"),
        "cannot prove `u` keeps its shape and dtype",
    ),
    # `mask` is rebound between the entry's combination and the loop
    (
        SCRIPT.replace("u = u_prev\n", "u = u_prev\nmask = jnp.ones((3, 8, 8))\n"),
        "cannot prove `u` keeps its shape and dtype",
    ),
    # an integer mask: `u` is an integer array, which `2.0 * u` makes a float array
    (
        SCRIPT.replace("np.zeros((8, 8), np.float32)", "np.zeros((8, 8), np.int32)")
        .replace("interior[1:-1, 1:-1] = 1.0", "interior[1:-1, 1:-1] = 1")
        .replace(".astype(np.float32)", ".astype(np.int32)"),
        "cannot prove `u` is a floating-point array",
    ),
]


@pytest.mark.parametrize(("source", "why"), CARRY_NOT_PROVEN)
def test_module_loops_whose_carry_is_not_proven_stay_a_step(source: str, why: str) -> None:
    result = rewrite(source, ("AO103",))
    assert "lax.scan" not in result.new_source
    assert why in result.findings[0].message
    assert_same_globals(module_globals(source), module_globals(result.new_source))


def test_a_function_reading_what_the_body_binds_keeps_the_loop_eager() -> None:
    """`damping` reads the global `lap` the same iteration bound: inside a step or a scan
    `lap` is local, and the function would read the previous (or no) value; jitting
    `damping` would freeze the first. No fix may move the body or jit the function."""
    source = SCRIPT.replace(
        "for _ in range",
        "def damping(v):\n    return v * lap\n\n\nfor _ in range",
    ).replace("u_prev, u = u, u_next", "u_prev, u = u, u_next - 0.01 * damping(u)")
    result = optimize_source(source)
    assert [(f.rule, f.fix.value) for f in result.findings if f.rule in ("AO101", "AO103")] == [
        ("AO101", "none")
    ]
    assert result.new_source == source
