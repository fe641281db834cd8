"""Found by benchmarks/fuzz_rewrites.py (fragment `nonlocal_rebind`). Trap for AO101:
the nested `step` closes over `scale`, which `decay()` rebinds with `nonlocal` after
every step; jit would freeze `scale` at its first value."""

import jax.numpy as jnp


def main():
    scale = 1.0

    def decay():
        nonlocal scale
        scale = scale * 0.5

    def step(s):
        return s * scale + 1.0

    s = jnp.ones(3)
    for _ in range(3):
        s = step(s)
        decay()
    return (s,)
