"""A progress helper reads a module-level running total (via `global`) and is called by
the loop every 2 steps.
"""

import jax
import jax.numpy as jnp

TOTAL = 0.0


def progress(i):
    print(f"{i}: running total {TOTAL:.5f}")


@jax.jit
def step(w):
    loss, g = jax.value_and_grad(lambda w: jnp.sum(w**4 - w))(w)
    return w - 0.05 * g, loss


def main():
    global TOTAL
    TOTAL = 0.0
    w = jnp.zeros(3)
    for i in range(6):
        w, loss = step(w)
        TOTAL += float(loss)
        if i % 2 == 1:
            progress(i)
    return TOTAL
