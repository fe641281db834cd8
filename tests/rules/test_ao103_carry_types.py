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


STAYS_A_STEP = [
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


@pytest.mark.parametrize(("source", "why"), STAYS_A_STEP)
def test_loops_that_stay_a_step(source: str, why: str) -> None:
    result = rewrite(source, ("AO103",))
    (finding,) = result.findings
    assert finding.fix.value == "safe" and "`_run_step`" in finding.message
    assert why in finding.message and "lax.scan(" not in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))
