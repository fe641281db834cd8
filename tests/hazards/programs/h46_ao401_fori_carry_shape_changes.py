"""Exponential smoothing of a sequence written with `.at[t].set`; the smoothed state
starts as the scalar `jnp.zeros(())` and broadcasts to a row at the first step. Trap
for AO401: as a `lax.fori_loop` the carried state must keep its shape, and fori_loop
raises."""

import jax.numpy as jnp


def smooth_all(zs):
    out = jnp.zeros(zs.shape)
    h = jnp.zeros(())
    for t in range(zs.shape[0]):
        h = 0.9 * h + 0.1 * zs[t]
        out = out.at[t].set(h)
    return out


def main():
    zs = jnp.cos(jnp.linspace(0.0, 4.0, 24)).reshape(8, 3)
    return smooth_all(zs)
