"""Losses printed every 4 steps; the loop's `else:` clause prints the final summary."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (8, 2))
    y = x @ jnp.array([1.0, 2.0])
    w = jnp.zeros(2)
    losses = []
    for i in range(10):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 4 == 0:
            print(f"step {i}: {losses[-1]:.5f}")
    else:
        print(f"finished: {len(losses)} steps, last {losses[-1]:.5f}")
    return losses
