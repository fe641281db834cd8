"""Losses collected; every 5 steps the mean is printed; a step budget breaks early."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.05 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(2), (10, 4))
    y = x[:, 0] - 2 * x[:, 3]
    w = jnp.zeros(4)
    losses = []
    budget = 13
    for i in range(100):
        w, loss = step(w, x, y)
        losses.append(loss.item())
        if i % 5 == 0:
            print(f"step {i}: mean {sum(losses) / len(losses):.5f}")
        if i + 1 >= budget:
            break
    return losses, w
