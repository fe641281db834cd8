"""Running loss total; every 3 steps, if the total passed a threshold, a warning is printed."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.05 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 3))
    y = x @ jnp.array([3.0, -2.0, 1.0])
    w = jnp.zeros(3)
    total = 0.0
    warnings = 0
    for i in range(12):
        w, loss = step(w, x, y)
        total += loss.item()
        if i % 3 == 2 and total > 20.0:
            warnings += 1
            print(f"step {i}: total {total:.4f}")
    return total, warnings
