"""Last collected loss printed every k steps, with a host counter advanced at the interval."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(7), (10, 2))
    y = x @ jnp.array([2.0, 1.0])
    w = jnp.zeros(2)
    losses = []
    reports = 0
    for i in range(10):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if (i + 1) % 3 == 0:
            reports += 1
            print(f"report {reports}: step {i + 1} loss {losses[-1]:.6f} best {min(losses):.6f}")
    return losses, reports
