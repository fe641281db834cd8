"""An `eqx.filter_jit` step fed a fresh batch each iteration, the batch summed after the
call. Trap for AO201: `donate="all"` would donate the batch too, which the loop reads
after the call."""

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(state, batch):
    return state - 0.1 * batch


def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    total = jnp.zeros(4)
    for _ in range(5):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        state = step(state, batch)
        total = total + batch
    return state, total
