"""Two generators print each batch they yield; an evaluation block that begins the body
prints and draws from one of them, then the update draws from both. Trap for AO103's
step after a block: the loop must draw the step's batches after the block, in the
order the update's lines draw them (train, test, train), so the printed lines keep
their order."""

import jax
import jax.numpy as jnp


def batches(name, seed):
    key = jax.random.key(seed)
    while True:
        key, sub = jax.random.split(key)
        print("draw", name)
        yield jax.random.normal(sub, (8, 3))


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w)


def main():
    train = batches("train", 0)
    test = batches("test", 1)
    w = jnp.ones(3)
    for step in range(6):
        if step % 3 == 0:
            print("eval", step, round(float(jnp.mean(next(test) @ w)), 4))
        g = grad_fn(w, next(train))
        h = grad_fn(w, next(test))
        w = w - 0.1 * g - 0.01 * h
        u = grad_fn(w, next(train))
        w = w - 0.1 * u
    return w
