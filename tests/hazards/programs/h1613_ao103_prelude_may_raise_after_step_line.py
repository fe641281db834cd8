"""Trap for AO103's prelude (analysis/plans/prelude.py): `progress = epoch / (d - epoch)`
follows a step line and divides by a name not proven nonzero. Computed by the loop
before the step, its ZeroDivisionError would come before `x = jnp.sin(x) + 1.0`, which
the caught error leaves in `x` as written."""

import jax.numpy as jnp


def run(x, d):
    progress = 0.0
    try:
        for epoch in range(5):
            x = jnp.sin(x) + 1.0
            progress = epoch / (d - epoch)
            x = jnp.tanh(x) * progress + x
            print(progress)
    except ZeroDivisionError:
        print("stopped")
    return x, progress


def main():
    return run(jnp.ones(3), 3)
