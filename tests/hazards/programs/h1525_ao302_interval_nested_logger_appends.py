"""A nested logger reads the losses at an interval and appends a marker to them."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(5), (8, 2))
    y = x[:, 0]
    w = jnp.zeros(2)
    losses = []

    def checkpoint(i):
        best = min(losses)
        losses.append(best)
        print(f"checkpoint at {i}: best {best:.5f}, {len(losses)} entries")

    for i in range(10):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 4 == 3:
            checkpoint(i)
    return losses
