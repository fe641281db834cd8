"""A training loop appends `float(loss)` to `losses`, which is the logger's own list
(`losses = logger.losses`); every third step `logger.flush(step)` prints the mean of the
last values through `self.losses`. Trap for AO302: with the conversion deferred, the
logger reads the list through another name before the pending values are added."""

import jax
import jax.numpy as jnp


class Logger:
    def __init__(self):
        self.losses = []

    def flush(self, step):
        recent = self.losses[-3:]
        print(f"step {step}: mean loss {sum(recent) / max(len(recent), 1):.5f}")


@jax.jit
def step_fn(w, x):
    loss, g = jax.value_and_grad(lambda v: jnp.sum((v - x) ** 2))(w)
    return w - 0.2 * g, loss


def main():
    logger = Logger()
    losses = logger.losses
    w = jnp.zeros(2)
    x = jnp.array([1.0, -1.0])
    for step in range(7):
        w, loss = step_fn(w, x)
        losses.append(float(loss))
        if step % 3 == 2:
            logger.flush(step)
    return w, losses
