"""Found by benchmarks/fuzz_rewrites.py (seed 7). Trap for the rewrite's fixpoint: AO302
keeps the `float(...)` syncs on the device, after which the loop body is a step AO103
compiles; one `rewrite --write` must reach that code (a second run changes nothing)."""

import jax.numpy as jnp


def loss1(w):
    return jnp.sum(w * w)


def main():
    losses1 = []
    w1 = jnp.arange(3.0)
    for i in range(4):
        w1 = w1 * 0.9 + i
        losses1.append(float(loss1(w1)))
    return (losses1,)
