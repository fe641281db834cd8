"""Trainer that records the initial parameters on a class for a later comparison:
`remember(p)` stores `p` in the class attribute `Run.start` and returns it. Trap for
AO201 (and AO103's scan, which donates its carry): donating `p` deletes the buffer
`Run.start` still holds, read after the loop."""

import jax.numpy as jnp


class Run:
    start = None


def remember(p):
    Run.start = p
    return p


def step(p):
    return p * 0.9 + 0.05


def main():
    p = remember(jnp.arange(4.0))
    for _ in range(20):
        p = step(p)
    return p, Run.start
