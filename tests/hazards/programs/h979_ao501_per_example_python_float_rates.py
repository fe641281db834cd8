"""A per-example loop over `zip(xs, rates, strict=True)` where `rates` is a Python list of floats
near one (per-user retention rates); the helper uses `1 - rate`. Eagerly each rate
stays a Python double until it meets an array. Trap for AO501: vmapped, the rates
become one float32 array, where `1 - 0.99999` is 0.14% off."""

import jax.numpy as jnp


def forget(history, rate):
    return rate * history + (1 - rate) * jnp.sum(history)


def main():
    xs = jnp.array([[100.0, 0.0], [0.0, 50.0], [20.0, 20.0]])
    rates = [0.99999, 0.999995, 0.99998]
    out = []
    for x, rate in zip(xs, rates, strict=True):
        out.append(forget(x, rate))
    return jnp.stack(out)
