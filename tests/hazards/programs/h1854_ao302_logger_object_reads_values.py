"""plain jax: a `Logger` object whose `log(value)` stores the host value and prints a
running mean every 3 calls; the loop calls `logger.log(float(loss))` after each jitted
step. Trap for AO302: the host values are read by the object's method inside the loop;
deferring the conversion until after the loop would hand the logger device arrays (or
change what it prints and when)."""

import jax
import jax.numpy as jnp


class Logger:
    def __init__(self):
        self.values = []

    def log(self, value):
        self.values.append(value)
        if len(self.values) % 3 == 0:
            print("mean loss", round(sum(self.values[-3:]) / 3, 5), type(value).__name__)


@jax.jit
def step(w, x):
    loss = jnp.mean((w - x) ** 2)
    return w - 0.3 * (w - x), loss


def main():
    logger = Logger()
    w = jnp.zeros(3)
    x = jnp.array([1.0, 2.0, 3.0])
    for _ in range(6):
        w, loss = step(w, x)
        logger.log(float(loss))
    return logger.values
