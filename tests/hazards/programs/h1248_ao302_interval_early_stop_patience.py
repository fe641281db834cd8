"""Early stopping decided every step from a validation loss kept in a list of floats,
with a report every third step. Trap for AO302: the list steers the loop
(`if losses[-1] > min(losses) + tol`), so its values must be host floats at once."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jnp.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]])
    y = jnp.array([1.0, 2.0, 1.0])
    w = jnp.zeros(2)
    losses = []
    patience = 0
    for i in range(30):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 3 == 0:
            print(f"step {i}: {losses[-1]:.6f}")
        if losses[-1] > min(losses) - 1e-3:
            patience += 1
            if patience >= 3:
                break
        else:
            patience = 0
    return w, len(losses), losses[-1]
