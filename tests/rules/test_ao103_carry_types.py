"""AO103's scan form for carries whose types are computed: a NamedTuple through matrix
products (the SEIR corpus program with float32 compartments), and the loops that must
stay a step because a shape or dtype provably changes."""

from __future__ import annotations

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
def run():
    rng = np.random.default_rng(0)
    population = rng.integers(2_000, 50_000, size=N_TOWNS).astype(np.float32)
    commute = rng.random((N_TOWNS, N_TOWNS)) * (rng.random((N_TOWNS, N_TOWNS)) < 0.5)
    mixing = np.eye(N_TOWNS) + 0.2 * commute / commute.sum(axis=1, keepdims=True).clip(1e-6)
    mixing = jnp.asarray(mixing, dtype=jnp.float32)
    pop = jnp.asarray(population)
    seeded = np.zeros(N_TOWNS, np.float32)
    seeded[[0, 3]] = 10.0
    state = Compartments(
        susceptible=pop - jnp.asarray(seeded),
        exposed=jnp.zeros(N_TOWNS, jnp.float32),
        infectious=jnp.asarray(seeded),
    )
    incidence = []
    for _ in range(N_STEPS):
        state, cases = euler_step(state, mixing, pop)
        incidence.append(cases.sum())
    return tuple(state), jnp.stack(incidence)
result = run()
"""


def test_a_namedtuple_through_square_matrix_products_runs_as_one_scan() -> None:
    result = rewrite(SEIR, ("AO103",))
    assert [(f.fix.value, f.message) for f in result.findings] == [
        (
            "safe",
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop as "
            "one jitted `lax.scan`, `_run_loop`, donating `state`",
        )
    ]
    assert "    state, incidence = _run_loop(state, mixing, pop)\n" in result.new_source
    assert "    return jax.lax.scan(body, state, length=N_STEPS)\n" in result.new_source
    assert_same(run_snippet(SEIR), run_snippet(result.new_source))


CHECKED = [
    # the corpus program's default-float compartment feeds a float32 one: float64 under x64
    (
        SEIR.replace("jnp.zeros(N_TOWNS, jnp.float32)", "jnp.zeros(N_TOWNS)"),
        "`state.infectious` is float32[6] when the loop starts and one iteration makes it "
        "default-float[6] (float64 under JAX_ENABLE_X64, so a Python loop promotes it and "
        "`lax.scan` raises)",
    ),
    # a mixing matrix that is not square: its shape is known, the product's is not the carry's
    (
        SEIR.replace("(mixing @ population)", "(mixing[:, :1] @ population[:1])"),
        "cannot prove `state` keeps its shape and dtype across iterations",
    ),
    # the population converted from float64: the default float reaches a float32 field
    (
        SEIR.replace("jnp.asarray(population)", "jnp.asarray(population.astype(np.float64))"),
        "`state.exposed` is float32[6] when the loop starts and one iteration makes it "
        "default-float[6]",
    ),
]


@pytest.mark.parametrize(("source", "why"), CHECKED)
def test_carries_checked_when_the_loop_starts(source: str, why: str) -> None:
    """The carry's type not proven (and not proven to change): the scan runs when the
    first step keeps it, else the loop of steps (tests/rules/test_ao103_guarded.py)."""
    result = rewrite(source, ("AO103",))
    (finding,) = result.findings
    assert finding.fix.value == "safe"
    assert "(checked when the loop starts: `_run_loop` runs `_run_scan`" in finding.message
    assert why in finding.message and "lax.scan(" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))


THERMOSTAT = """
import jax.numpy as jnp
import numpy as np
N_ATOMS = 27
BOX = 4.5
DT = 0.004
N_STEPS = 20
def minimum_image(delta):
    return delta - BOX * jnp.round(delta / BOX)
def pair_forces(pos):
    delta = minimum_image(pos[:, None, :] - pos[None, :, :])
    r2 = jnp.sum(delta**2, axis=-1) + jnp.eye(pos.shape[0], dtype=jnp.float32)
    inv6 = 1.0 / (r2**3 + 0.5)
    magnitude = 24.0 * inv6 * (2.0 * inv6 - 1.0) / r2 * (1.0 - jnp.eye(N_ATOMS, dtype=jnp.float32))
    return jnp.sum(magnitude[:, :, None] * delta, axis=1)
def run():
    rng = np.random.default_rng(0)
    side = round(N_ATOMS ** (1 / 3))
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    pos = jnp.asarray((grid + 0.5) * BOX / side + 0.05 * rng.normal(size=grid.shape), jnp.float32)
    vel = jnp.asarray(rng.normal(scale=np.sqrt(0.05), size=(N_ATOMS, 3)), jnp.float32)
    vel = vel - vel.mean(axis=0)
    force = pair_forces(pos)
    temperatures = []
    for _ in range(N_STEPS):
        vel = vel + 0.5 * DT * force
        pos = jnp.mod(pos + DT * vel, BOX)
        force = pair_forces(pos)
        vel = vel + 0.5 * DT * force
        temp = jnp.sum(vel**2) / (3 * vel.shape[0])
        vel = vel * jnp.sqrt(1.0 + DT / 0.1 * (0.05 / temp - 1.0))
        temperatures.append(temp)
    return pos, vel, jnp.stack(temperatures)
result = run()
"""


def test_positions_from_a_host_grid_run_as_one_scan() -> None:
    """The thermostat corpus program with float32 identity matrices: the positions'
    shape is computed through `meshgrid`, the forces' through the pairwise differences."""
    result = rewrite(THERMOSTAT, ("AO103",))
    (finding,) = result.findings
    assert finding.fix.value == "safe" and "one jitted `lax.scan`, `_run_loop`" in finding.message
    assert "    return jax.lax.scan(body, (vel, pos, force), length=N_STEPS)\n" in (
        result.new_source
    )
    assert_same(run_snippet(THERMOSTAT), run_snippet(result.new_source))


def test_the_corpus_thermostat_checks_its_carry_when_the_loop_starts() -> None:
    """`jnp.eye(n)` without a dtype is float64 under x64: the float32 velocities would be
    promoted in the first step."""
    source = THERMOSTAT.replace(", dtype=jnp.float32)", ")")
    (finding,) = rewrite(source, ("AO103",)).findings
    assert finding.message.endswith(
        "cannot prove `vel` keeps its shape and dtype across iterations: `vel` is "
        "float32[27,3] when the loop starts and one iteration makes it default-float[27,3] "
        "(float64 under JAX_ENABLE_X64, so a Python loop promotes it and `lax.scan` raises)"
    )
