"""Controller whose gain is annealed every 10 steps through the module namespace:
`anneal()` writes `globals()["GAIN"]`, never a `global` statement. Trap for AO101:
`control` reads `GAIN`; jit would freeze it at 0.5 (issue 27, x08)."""

import jax.numpy as jnp

GAIN = 0.5


def control(err):
    return err - GAIN * jnp.tanh(err)


def anneal(factor):
    globals()["GAIN"] = GAIN * factor


def main():
    err = jnp.array([2.0, -1.0, 0.5])
    for t in range(60):
        err = control(err)
        if t % 10 == 9:
            anneal(0.5)
    return err
