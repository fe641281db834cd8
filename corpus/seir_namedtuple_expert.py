"""Metapopulation SEIR epidemic on 40 towns coupled by commuting, forward Euler in days/10.

Hand-optimized: the NamedTuple state is the carry of one jitted lax.scan, the incidence its
output.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

N_TOWNS = 40
DT = 0.1
N_STEPS = 1000  # 100 days
BETA, SIGMA, GAMMA = 0.45, 1 / 5.2, 1 / 7.0


class Compartments(NamedTuple):
    susceptible: jnp.ndarray
    exposed: jnp.ndarray
    infectious: jnp.ndarray
    recovered: jnp.ndarray


def force_of_infection(state, mixing, population):
    return BETA * (mixing @ state.infectious) / (mixing @ population)


def euler_step(state, mixing, population):
    lam = force_of_infection(state, mixing, population)
    new_exposed = lam * state.susceptible * DT
    new_infectious = SIGMA * state.exposed * DT
    new_recovered = GAMMA * state.infectious * DT
    next_state = Compartments(
        susceptible=state.susceptible - new_exposed,
        exposed=state.exposed + new_exposed - new_infectious,
        infectious=state.infectious + new_infectious - new_recovered,
        recovered=state.recovered + new_recovered,
    )
    return next_state, new_infectious


@jax.jit
def simulate(state, mixing, population):
    def body(state, _):
        state, cases = euler_step(state, mixing, population)
        return state, cases.sum()

    return jax.lax.scan(body, state, None, length=N_STEPS)


def main():
    rng = np.random.default_rng(0)
    population = rng.integers(2_000, 50_000, size=N_TOWNS).astype(np.float32)
    commute = rng.random((N_TOWNS, N_TOWNS)) * (rng.random((N_TOWNS, N_TOWNS)) < 0.15)
    mixing = np.eye(N_TOWNS) + 0.2 * commute / commute.sum(axis=1, keepdims=True).clip(1e-6)
    mixing = jnp.asarray(mixing, dtype=jnp.float32)
    pop = jnp.asarray(population)

    seeded = np.zeros(N_TOWNS, np.float32)
    seeded[[0, 7]] = 10.0
    state = Compartments(
        susceptible=pop - jnp.asarray(seeded),
        exposed=jnp.zeros(N_TOWNS),
        infectious=jnp.asarray(seeded),
        recovered=jnp.zeros(N_TOWNS),
    )
    state, incidence = simulate(state, mixing, pop)

    return {
        "final": state._asdict(),
        "incidence": incidence,
        "attack_rate": state.recovered.sum() / pop.sum(),
    }


if __name__ == "__main__":
    print(main())
