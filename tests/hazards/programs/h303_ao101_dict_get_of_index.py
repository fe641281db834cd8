"""Found by benchmarks/fuzz_rewrites.py (fragment `numpy_on_index`, seed 200). Trap for
AO101: the step looks its phase up with `{...}.get(t % 2, ...)`; jitted with `t` traced,
the dict hashes a tracer and raises."""

import jax.numpy as jnp


def step(s, t):
    return s * 0.5 + {0: 0.1, 1: 0.2}.get(t % 2, 0.3)


def main():
    s = jnp.ones(3)
    for t in range(4):
        s = step(s, t)
    return (s,)
