"""Trap for AO103's prelude: `lr = lr * 0.9` carries a Python float across iterations (it
reads its last value), so it is no prelude: traced, it would come back from the step as
an array, and the caller gets a float32 array instead of a Python float."""

import jax.numpy as jnp


def run(w, n):
    lr = 0.5
    for _ in range(n):
        lr = lr * 0.9
        g = jnp.cos(w)
        w = w - lr * g
    return w, lr


def main():
    return run(jnp.ones(3), 5)
