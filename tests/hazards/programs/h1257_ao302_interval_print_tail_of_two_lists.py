"""Train and "validation" losses collected with `.item()` and printed every third step
as the mean of the last three of each; the validation list is also read by a
`best = min(val_losses)` at the interval. Trap for AO302: both lists are read at the
interval and must be complete there."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


@jax.jit
def evaluate(w, x, y):
    return jnp.mean(jnp.abs(x @ w - y))


def main():
    x = jnp.array([[1.0, 0.0], [0.5, 1.0], [1.0, 1.0]])
    y = jnp.array([1.0, 1.0, 2.0])
    w = jnp.zeros(2)
    losses, val_losses = [], []
    best = None
    for i in range(12):
        w, loss = step(w, x, y)
        losses.append(loss.item())
        val_losses.append(evaluate(w, x, y).item())
        if (i + 1) % 3 == 0:
            best = min(val_losses)
            print(f"{i + 1}: train {sum(losses[-3:]) / 3:.6f} val {sum(val_losses[-3:]) / 3:.6f}")
    return w, losses, val_losses, best
