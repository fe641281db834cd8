"""Two towns' SEIR compartments in a NamedTuple, run with x64 enabled: the exposed field
starts as `jnp.zeros` (the default float, float64 here) and feeds the float32 infectious
field, which a Python loop promotes to float64 in its first step. Trap for AO103's
whole-loop form with computed carry types: the matrix products and fields keep their
shapes, but `lax.scan` would raise on the dtype; the loop must stay a step (or a
guarded scan that sees the promotion and runs the steps)."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

N = 3
STEPS = 15


class State(NamedTuple):
    susceptible: jnp.ndarray
    exposed: jnp.ndarray
    infectious: jnp.ndarray


def step(state, mixing):
    force = 0.4 * (mixing @ state.infectious) / (mixing @ jnp.ones(N, jnp.float32))
    new_exposed = force * state.susceptible * 0.1
    new_infectious = 0.2 * state.exposed * 0.1
    return State(
        susceptible=state.susceptible - new_exposed,
        exposed=state.exposed + new_exposed - new_infectious,
        infectious=state.infectious + new_infectious - 0.1 * state.infectious * 0.1,
    )


def main():
    mixing = jnp.asarray(np.eye(N) + 0.1, dtype=jnp.float32)
    infectious = np.zeros(N, np.float32)
    infectious[0] = 0.01
    state = State(
        susceptible=jnp.ones(N, jnp.float32) - jnp.asarray(infectious),
        exposed=jnp.zeros(N),
        infectious=jnp.asarray(infectious),
    )
    cases = []
    for _ in range(STEPS):
        state = step(state, mixing)
        cases.append(jnp.sum(state.infectious))
    return tuple(state), jnp.stack(cases)
