"""Polyak/EMA weights started as a "device copy" of the params: `jax.device_put` of an
array already on the device returns that very array. Trap for AO201: `w` is rebound by
every step, but the EMA started as the same buffer; donating `w` deletes it at the first
step, and the EMA update reads it right after."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y):
    grad = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * grad


def main():
    x = jnp.arange(12.0).reshape(4, 3) / 10.0
    y = jnp.array([1.0, 0.0, -1.0, 0.5])
    w = jnp.zeros(3)
    ema = jax.device_put(w)  # "copy" to the device for the averaged weights
    for _ in range(6):
        w = sgd_step(w, x, y)
        ema = 0.8 * ema + 0.2 * w
    print("ema norm", round(float(jnp.linalg.norm(ema)), 5))
    return w, ema
