"""Every fourth step halves the learning rate (an array) in an `if` block that begins the
body, before the update. Trap for AO103's step after a block: the update must read the
rate the block has just halved on that very iteration (a step placed before the block,
or one that read the rate once, would use the old one)."""

import jax
import jax.numpy as jnp


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v - 1.0) ** 2))(w)


def main():
    x = jnp.arange(24.0).reshape(8, 3) / 24
    w = jnp.zeros(3)
    lr = jnp.asarray(0.4)
    for step in range(10):
        if step % 4 == 0:
            lr = lr * 0.5
        g = grad_fn(w, x)
        w = w - lr * g
    return w, lr
