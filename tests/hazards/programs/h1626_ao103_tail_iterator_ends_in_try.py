"""A finite iterator ends inside the loop, caught by `try ... except StopIteration`; the
update after a logging block first moves `w`, then draws. Trap for AO103's step after a
block: drawing before the step, the last, failing draw would come before `w` moved, so
the `w` the function returns would differ by that one move."""

import jax
import jax.numpy as jnp


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w)


def main():
    train = iter([jnp.full((8, 3), i / 10.0) for i in range(5)])
    w = jnp.ones(3)
    try:
        for step in range(8):
            if step % 4 == 0:
                print(step)
            w = w * 0.9
            g = grad_fn(w, next(train))
            w = w - 0.1 * g
    except StopIteration:
        pass
    return w
