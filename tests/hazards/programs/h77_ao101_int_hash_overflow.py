"""Random walk with a per-step hashed jitter of the step counter. Trap for AO101: the
Python int `step * MULT + 12345` is exact eagerly; jitted, `step` is an int32 tracer and
the product wraps around past step 238, so every later jitter changes."""

import jax.numpy as jnp

MULT = 9_000_017
MOD = 1_000_003


def jitter(pos, step):
    h = (step * MULT + 12345) % MOD  # a cheap hash of the step, in [0, MOD)
    return pos + 0.01 * (h / MOD - 0.5) + 0.001 * jnp.tanh(pos)


def main():
    pos = jnp.zeros(4)
    for step in range(400):
        pos = jitter(pos, step)
    return pos
