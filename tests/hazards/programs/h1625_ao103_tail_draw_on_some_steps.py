"""The update after a logging block draws a fresh batch only after the warmup
(`next(train) if step > 2 else warm`). Trap for AO103's step after a block: drawing the
batch in the loop before the step would draw it on the warmup steps too, shifting every
later batch."""

import jax
import jax.numpy as jnp


def batches():
    i = 0
    while True:
        i += 1
        yield jnp.full((8, 3), i / 10.0)


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w)


def main():
    train = batches()
    warm = jnp.ones((8, 3))
    w = jnp.ones(3)
    for step in range(8):
        if step % 4 == 0:
            print(step, float(jnp.sum(w)))
        g = grad_fn(w, next(train) if step > 2 else warm)
        w = w - 0.1 * g
    return w
