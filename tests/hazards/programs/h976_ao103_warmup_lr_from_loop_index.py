"""An eager counted loop computing its warmup learning rate from the loop index in
Python, `lr = 0.5 * (1.0 - 0.99999 ** (i + 1))`, double-precision arithmetic. Trap for
AO103's whole-loop scan: with `i` traced, the same expression runs in float32, where
`0.99999` rounds to 0.99998999 and the rate is off by 0.14%."""

import jax.numpy as jnp


def main():
    target = jnp.array([3.0, -1.0])
    w = jnp.zeros(2)
    for i in range(4):
        lr = 0.5 * (1.0 - 0.99999 ** (i + 1))
        g = 2.0 * (w - target)
        w = w - lr * g
    return w
