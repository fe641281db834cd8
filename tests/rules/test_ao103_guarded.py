"""AO103's guarded whole-loop form: where the carry's type is the one premise of the
scan form not proven, the loop's function checks it when the loop starts (`eval_shape`
of the step on the starting carry) and runs the jitted `lax.scan`, its first step apart
where only the second step keeps the types (a weakly typed start), or else the loop of
jitted steps. Results equal the original's with x64 off (the scan) and on (the steps)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from .helpers import assert_same, rewrite, run_snippet

SEIR = """
from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

N_TOWNS = 6
N_STEPS = 30
BETA, SIGMA, GAMMA = 0.45, 1 / 5.2, 1 / 7.0


class Compartments(NamedTuple):
    susceptible: jnp.ndarray
    exposed: jnp.ndarray
    infectious: jnp.ndarray


def euler_step(state, mixing, population):
    lam = BETA * (mixing @ state.infectious) / (mixing @ population)
    new_exposed = lam * state.susceptible * 0.1
    new_infectious = SIGMA * state.exposed * 0.1
    next_state = Compartments(
        susceptible=state.susceptible - new_exposed,
        exposed=state.exposed + new_exposed - new_infectious,
        infectious=state.infectious + new_infectious - GAMMA * state.infectious * 0.1,
    )
    return next_state, new_infectious


def main():
    rng = np.random.default_rng(0)
    population = rng.integers(2_000, 50_000, size=N_TOWNS).astype(np.float32)
    mixing = jnp.asarray(np.eye(N_TOWNS) + 0.05, dtype=jnp.float32)
    pop = jnp.asarray(population)
    seeded = np.zeros(N_TOWNS, np.float32)
    seeded[[0, 3]] = 10.0
    state = Compartments(
        susceptible=pop - jnp.asarray(seeded),
        exposed=jnp.zeros(N_TOWNS),  # the default float: float64 under x64
        infectious=jnp.asarray(seeded),
    )
    incidence = []
    for _ in range(N_STEPS):
        state, cases = euler_step(state, mixing, pop)
        incidence.append(cases.sum())
    return tuple(state), jnp.stack(incidence)
"""

SEIR_GUARDED = '''
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

N_TOWNS = 6
N_STEPS = 30
BETA, SIGMA, GAMMA = 0.45, 1 / 5.2, 1 / 7.0


class Compartments(NamedTuple):
    susceptible: jnp.ndarray
    exposed: jnp.ndarray
    infectious: jnp.ndarray


def euler_step(state, mixing, population):
    lam = BETA * (mixing @ state.infectious) / (mixing @ population)
    new_exposed = lam * state.susceptible * 0.1
    new_infectious = SIGMA * state.exposed * 0.1
    next_state = Compartments(
        susceptible=state.susceptible - new_exposed,
        exposed=state.exposed + new_exposed - new_infectious,
        infectious=state.infectious + new_infectious - GAMMA * state.infectious * 0.1,
    )
    return next_state, new_infectious


@functools.partial(jax.jit, donate_argnames=("state",))
def _main_step(state, mixing, pop):
    state, cases = euler_step(state, mixing, pop)
    incidence_item = cases.sum()
    return state, incidence_item


@functools.partial(jax.jit, static_argnames=("peel",), donate_argnames=("state",))
def _main_scan(state, mixing, pop, peel=False):
    def body(state, _):
        state, incidence_item = _main_step(state, mixing, pop)
        return state, incidence_item

    if not peel:
        return jax.lax.scan(body, state, length=N_STEPS)
    # the first step, on the starting types
    state, first = body(state, 0)
    state, rest = jax.lax.scan(body, state, length=N_STEPS - 1)
    return state, jnp.concatenate([first[None], rest])


def _main_loop(state, mixing, pop):
    """One jitted `lax.scan` of `_main_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(
            jax.eval_shape(lambda x: x, tree)
        )
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_main_step, state, mixing, pop)[0]
    if types(first) == types(state):
        return _main_scan(state, mixing, pop)
    if types(jax.eval_shape(_main_step, first, mixing, pop)[0]) == types(first):
        return _main_scan(state, mixing, pop, peel=True)
    incidence = []
    for _ in range(N_STEPS):
        state, incidence_item = _main_step(state, mixing, pop)
        incidence.append(incidence_item)
    return state, jnp.stack(incidence)


def main():
    rng = np.random.default_rng(0)
    population = rng.integers(2_000, 50_000, size=N_TOWNS).astype(np.float32)
    mixing = jnp.asarray(np.eye(N_TOWNS) + 0.05, dtype=jnp.float32)
    pop = jnp.asarray(population)
    seeded = np.zeros(N_TOWNS, np.float32)
    seeded[[0, 3]] = 10.0
    state = Compartments(
        susceptible=pop - jnp.asarray(seeded),
        exposed=jnp.zeros(N_TOWNS),  # the default float: float64 under x64
        infectious=jnp.asarray(seeded),
    )
    incidence = []
    state, incidence = _main_loop(state, mixing, pop)
    return tuple(state), incidence
'''

#: Runs `main()` of the program at argv[1] (with the calls of `_main_scan` recorded,
#: where there is one: whether each ran its first step apart) and pickles its result, as
#: NumPy, and the record to argv[2].
RUNNER = """
import importlib.util, pickle, sys
import jax, numpy as np
spec = importlib.util.spec_from_file_location("program", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
scans = []
if hasattr(module, "_main_scan"):
    scan = module._main_scan
    module._main_scan = lambda *args, **kw: scans.append(kw.get("peel", False)) or scan(*args, **kw)
result = jax.tree.map(np.asarray, module.main())
with open(sys.argv[2], "wb") as f:
    pickle.dump((result, scans), f)
"""


def run_program(tmp_path: Path, name: str, source: str, x64: bool) -> tuple[object, list[bool]]:
    """`main()` of `source` in a fresh interpreter, with or without JAX_ENABLE_X64, and
    its calls of the scan (`peel` of each)."""
    program, out = tmp_path / f"{name}.py", tmp_path / f"{name}.pkl"
    program.write_text(source)
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    env = {**os.environ, "JAX_ENABLE_X64": "1" if x64 else "0", "JAX_PLATFORMS": "cpu"}
    subprocess.run([sys.executable, str(runner), str(program), str(out)], env=env, check=True)
    with out.open("rb") as f:
        return pickle.load(f)


def test_the_seir_loop_checks_its_carry_when_it_starts() -> None:
    result = rewrite(SEIR, ("AO103",))
    assert [(f.fix.value, f.message) for f in result.findings] == [
        (
            "safe",
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop as "
            "one jitted `lax.scan` when the carry keeps its types (checked when the loop "
            "starts: `_main_loop` runs `_main_scan`, else `_main_step` once per iteration), "
            "donating `state`; statically, cannot prove `state` keeps its shape and dtype "
            "across iterations: `state.infectious` is float32[6] when the loop starts and one "
            "iteration makes it default-float[6] (float64 under JAX_ENABLE_X64, so a Python "
            "loop promotes it and `lax.scan` raises)",
        )
    ]
    assert result.new_source == SEIR_GUARDED
    assert rewrite(result.new_source, ("AO103",)).new_source == SEIR_GUARDED


@pytest.mark.parametrize(("x64", "scans"), [(False, [False]), (True, [])])
def test_the_guard_runs_the_scan_or_the_steps_and_both_equal_the_loop(
    tmp_path: Path, x64: bool, scans: list[bool]
) -> None:
    """x64 off: every compartment is float32, the scan runs. x64 on: `exposed` is float64
    and promotes `infectious` in the first step and `susceptible` in the second (the scan
    would raise); the guard sees that neither the first step nor the second keeps the
    types and runs the steps, as the Python loop did."""
    before, _ = run_program(tmp_path, "original", SEIR, x64)
    after, ran = run_program(tmp_path, "rewritten", SEIR_GUARDED, x64)
    assert ran == scans
    assert_same(before, after, rtol=1e-9 if x64 else 1e-4)


CHAIKIN = """
import jax.numpy as jnp
import numpy as np

N_ROUNDS = 4


def chaikin(points):
    nxt = jnp.roll(points, -1, axis=0)
    q = 0.75 * points + 0.25 * nxt
    r = 0.25 * points + 0.75 * nxt
    return jnp.stack([q, r], axis=1).reshape(-1, points.shape[1])


def main():
    angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)
    curve = jnp.asarray(np.stack([np.cos(angles), np.sin(angles)], 1), jnp.float32)
    lengths = []
    for _ in range(N_ROUNDS):
        curve = chaikin(curve)
        lengths.append(jnp.sum(curve**2))
    return curve, jnp.stack(lengths)
"""


def test_a_carry_that_changes_its_shape_takes_the_steps(tmp_path: Path) -> None:
    """Each round doubles the points, which the analysis cannot show: the guard is
    written, finds the shape changed after the first step and runs the steps."""
    result = rewrite(CHAIKIN, ("AO103",))
    assert "(checked when the loop starts" in result.findings[0].message
    for x64 in (False, True):
        before, _ = run_program(tmp_path, "original", CHAIKIN, x64)
        after, ran = run_program(tmp_path, "rewritten", result.new_source, x64)
        assert ran == []
        assert_same(before, after)


WEAK = """
import jax.numpy as jnp

N_STEPS = 5


def main():
    u = jnp.linspace(0.0, 1.0, 4)
    t = jnp.asarray(0.0)
    totals, peaks = [], []
    for _ in range(N_STEPS):
        u = jnp.sin(u) * 1.5
        t = t + jnp.sum(u)
        totals.append(t)
        peaks.append(jnp.max(u))
    return u, t, jnp.stack(totals), jnp.stack(peaks)
"""


def test_a_weakly_typed_carry_that_comes_back_strong_runs_its_first_step_apart(
    tmp_path: Path,
) -> None:
    """`t` starts weakly typed (from a Python float) and comes back a float32 array: the
    guard compares weak types too, so the scan does not start from it; the second step
    keeps the types, so the scan runs the first step apart, then the others."""
    result = rewrite(WEAK, ("AO103",))
    assert "(checked when the loop starts" in result.findings[0].message
    assert (
        "    return (u, t), tuple(jnp.concatenate([a[None], b]) for a, b in zip(first, rest))\n"
        in result.new_source
    )
    before, _ = run_program(tmp_path, "original", WEAK, False)
    after, ran = run_program(tmp_path, "rewritten", result.new_source, False)
    assert ran == [True]
    assert_same(before, after)


WRAPS = """
import jax.numpy as jnp

N_STEPS = 4


def main():
    bump = jnp.asarray([100, 120, 7], dtype=jnp.int8)
    c = jnp.full(3, 50)  # weakly typed: it meets the int8 bump as int8, and wraps
    for _ in range(N_STEPS):
        c = (c + bump).astype(jnp.int32)
        c = c * 3
    return c
"""


def test_the_first_step_apart_takes_the_weak_carry_as_the_loop_did(tmp_path: Path) -> None:
    """A scan started from the weak carry would promote it to a strong int32 (no wrap in
    the first step); the first step apart keeps the loop's numbers exactly."""
    result = rewrite(WRAPS, ("AO103",))
    assert "# the first step, on the starting types\n    c = body(c, 0)[0]\n" in result.new_source
    before, _ = run_program(tmp_path, "original", WRAPS, False)
    after, ran = run_program(tmp_path, "rewritten", result.new_source, False)
    assert ran == [True]
    np.testing.assert_array_equal(before, after)
    bump = jnp.asarray([100, 120, 7], dtype=jnp.int8)
    naive = jax.lax.scan(
        lambda c, _: ((c + bump).astype(jnp.int32) * 3, None), jnp.full(3, 50), length=4
    )[0]
    assert not np.array_equal(before, np.asarray(naive))


MODULE = """
import jax.numpy as jnp

N_STEPS = 6
u = jnp.linspace(0.0, 1.0, 5)
u = u.astype(jnp.zeros(1).dtype)
v = jnp.zeros(5, jnp.float32)
for _ in range(N_STEPS):
    u = 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))
    v = v + u
result = u, v
"""


def test_a_module_loop_is_guarded_too() -> None:
    result = rewrite(MODULE, ("AO103",))
    assert "(checked when the loop starts: `_loop` runs `_scan`" in result.findings[0].message
    assert "u, v = _loop(u, v)\n_ = N_STEPS - 1\n" in result.new_source
    assert_same(run_snippet(MODULE), run_snippet(result.new_source))


BLEND = """
import jax.numpy as jnp

STEPS = 10


def main():
    profile = jnp.zeros(3, jnp.float32)
    scenarios = jnp.ones((2, 3), jnp.float32)
    peaks = []
    for _ in range(STEPS):
        profile = 0.9 * profile + 0.1 * scenarios
        peaks.append(jnp.max(profile))
    return profile, jnp.stack(peaks)
"""

NOT_GUARDED = [
    # the shape provably changes (broadcast to the scenarios'): the guard would always fail
    (BLEND, "float32[3] when the loop starts and one iteration makes it float32[2,3]"),
    # an impure step (it prints): no step, no scan
    (
        SEIR.replace(
            "incidence.append(cases.sum())", "incidence.append(cases.sum())\n        print(cases)"
        ),
        "",
    ),
    # no iteration at all: scan would still trace the step
    (SEIR.replace("N_STEPS = 30", "N_STEPS = 0"), ""),
    # the loop variable is read after the loop: not the carry's type
    (
        SEIR.replace("for _ in", "for t in").replace(
            "return tuple(state),", "return t, tuple(state),"
        ),
        "",
    ),
]


@pytest.mark.parametrize(("source", "why"), NOT_GUARDED)
def test_loops_without_the_guard(source: str, why: str) -> None:
    result = rewrite(source, ("AO103",))
    assert all("checked when the loop starts" not in f.message for f in result.findings)
    assert why in " ".join(f.message for f in result.findings)
    assert "eval_shape" not in result.new_source and "lax.scan" not in result.new_source
