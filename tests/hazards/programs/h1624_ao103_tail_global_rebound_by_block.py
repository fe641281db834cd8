"""An `if` block that begins the body calls `decay()`, which halves the module global
`SCALE`; the update after it reads `SCALE` through a helper. Trap for AO103's step after
a block: a jitted step would freeze `SCALE` at its value when traced."""

import jax
import jax.numpy as jnp

SCALE = 0.5


def decay():
    global SCALE
    SCALE = SCALE * 0.5


def shrink(g):
    return g * SCALE


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v - 1.0) ** 2))(w)


def main():
    x = jnp.arange(24.0).reshape(8, 3) / 24
    w = jnp.zeros(3)
    for step in range(9):
        if step % 3 == 0:
            decay()
        g = grad_fn(w, x)
        w = w - shrink(g)
    return w
