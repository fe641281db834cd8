"""A helper raises an array base to an integer argument; called per sampled step in a loop."""

import jax.numpy as jnp


def survival(rate, k):
    return rate**k


def main():
    rate = jnp.asarray([0.9999, 1.00005])
    curve = []
    for k in range(0, 20000, 2500):
        curve.append(survival(rate, k))
    return jnp.stack(curve)
