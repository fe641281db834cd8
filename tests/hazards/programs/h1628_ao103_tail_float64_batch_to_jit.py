"""float64 NumPy batches from a generator go, after an evaluation block, only to a
function under `@jax.jit`. Trap for AO103's step after a block: the step takes the
batch drawn by the loop; it must convert it exactly as the inner jit did (to float32),
so the results match."""

import jax
import jax.numpy as jnp
import numpy as np


def batches():
    rng = np.random.default_rng(0)
    while True:
        yield rng.normal(size=(8, 3))


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v - 1.0) ** 2))(w)


def main():
    train = batches()
    w = jnp.zeros(3)
    for step in range(10):
        if step % 5 == 0:
            print(step, round(float(jnp.sum(w)), 4))
        g = grad_fn(w, next(train))
        w = w - 0.1 * g
    return w
