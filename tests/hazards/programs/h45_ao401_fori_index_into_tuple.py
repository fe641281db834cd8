"""Periodically forced oscillator sampled into an output array with `.at[t].set`;
the forcing amplitude cycles through a Python tuple, indexed with `t % 4`. Trap for
AO401: as a `lax.fori_loop` the index is a tracer, and a tuple cannot be indexed with
it."""

import jax.numpy as jnp

AMPLITUDES = (0.0, 1.0, 0.0, -1.0)


def forced_response(x0, times):
    out = jnp.zeros((times.shape[0], 2))
    x = x0
    for t in range(times.shape[0]):
        force = AMPLITUDES[t % 4]
        x = jnp.stack([x[0] + 0.1 * x[1], x[1] - 0.1 * x[0] + 0.1 * force])
        out = out.at[t].set(x)
    return out


def main():
    return forced_response(jnp.array([1.0, 0.0]), jnp.arange(16))
