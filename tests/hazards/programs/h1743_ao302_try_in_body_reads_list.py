"""Inside the body a host check may raise; its `except` handler (in the body) prints how
many losses were collected so far.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    loss, g = jax.value_and_grad(lambda w: jnp.sum((w - 3.0) ** 2))(w)
    return w - 0.3 * g, loss


def check(i):
    if i % 3 == 1:
        raise ValueError(f"step {i} flagged")


def main():
    w = jnp.zeros(2)
    losses = []
    for i in range(6):
        w, loss = step(w)
        losses.append(float(loss))
        try:
            check(i)
        except ValueError as err:
            print(err, "after", len(losses), "losses, last", round(losses[-1], 5))
    return losses
