"""`main` defines a nested `report(i)` that prints the running mean of `losses`, and the
loop calls it every third step. Trap for AO302: `report` reads `losses` as a free
variable, not as a statement of the loop; with the conversions deferred it would see
the list before they arrive."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.05 * g, loss


def main():
    x = jnp.array([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([1.0, 2.0, -1.0, 0.0])
    w = jnp.zeros(2)
    losses = []

    def report(i):
        print(f"step {i}: running mean {sum(losses) / max(len(losses), 1):.6f}")

    for i in range(9):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 3 == 2:
            report(i)
    return w, losses
