"""A running mean started from the scalar `jnp.zeros((), jnp.float32)` and broadcast
to the rows it averages by the first update. Trap for AO103's whole-loop form: the
carry's shape changes after one step, which `lax.scan` rejects."""

import jax.numpy as jnp

N_STEPS = 9


def blend(mean, row, weight):
    return mean + weight * (jnp.tanh(row) - mean)


def main():
    rows = jnp.linspace(-2.0, 2.0, 4 * N_STEPS).reshape(N_STEPS, 4)
    mean = jnp.zeros((), jnp.float32)
    drift = []
    for i in range(N_STEPS):
        row = rows[i] * 0.5
        mean = blend(mean, row, 0.3)
        drift.append(jnp.max(jnp.abs(mean)))
    return mean, jnp.stack(drift)
