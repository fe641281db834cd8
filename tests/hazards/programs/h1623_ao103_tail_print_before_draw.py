"""The update after an evaluation block first calls a helper that prints, then draws a
batch from a generator that prints too. Trap for AO103's step after a block: the loop
would draw the batch before the step, printing "draw" before "shift"; the helper's print
keeps the step from compiling at all (it would run once, at trace time)."""

import jax
import jax.numpy as jnp


def batches():
    key = jax.random.key(0)
    while True:
        key, sub = jax.random.split(key)
        print("draw")
        yield jax.random.normal(sub, (8, 3))


def shift(w):
    print("shift")
    return w * 0.99


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w)


def main():
    train = batches()
    w = jnp.ones(3)
    for step in range(4):
        if step % 2 == 0:
            print("eval", step)
        w = shift(w)
        g = grad_fn(w, next(train))
        w = w - 0.1 * g
    return w
