"""A reporter lambda bound before the loop (`report = lambda: min(losses)`) is called
inside the loop every 3 steps.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    def loss_fn(w):
        return jnp.sum((w - jnp.arange(3.0)) ** 2) + jnp.sum(jnp.sin(5 * w))

    loss, g = jax.value_and_grad(loss_fn)(w)
    return w - 0.05 * g, loss


def main():
    w = jnp.zeros(3)
    losses = []
    report = lambda: min(losses)  # noqa: E731
    best = []
    for i in range(7):
        w, loss = step(w)
        losses.append(loss.item())
        if i % 3 == 0:
            best.append(report())
    return losses, best
