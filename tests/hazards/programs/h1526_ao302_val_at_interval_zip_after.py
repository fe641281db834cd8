"""Train losses every step, validation losses every 3 steps, zipped after the loop."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss


@jax.jit
def evaluate(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def main():
    k1, k2 = jax.random.split(jax.random.PRNGKey(6))
    x = jax.random.normal(k1, (16, 3))
    xv = jax.random.normal(k2, (8, 3))
    true_w = jnp.array([1.0, -1.0, 0.0])
    y, yv = x @ true_w, xv @ true_w
    w = jnp.zeros(3)
    train_losses, val_losses = [], []
    for i in range(9):
        w, loss = step(w, x, y)
        train_losses.append(loss.item())
        if i % 3 == 0:
            val_losses.append(evaluate(w, xv, yv).item())
            print(f"step {i}: train {train_losses[-1]:.4f} val {val_losses[-1]:.4f}")
    return list(zip(train_losses[::3], val_losses))  # noqa: B905
