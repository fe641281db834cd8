"""The loss list is stored in a metrics dict before the loop,
`metrics = {"loss": losses}`, and the interval prints `len(metrics["loss"])` with the
mean of its tail. Trap for AO302: the dict reads the list, so a deferred conversion
would show it short at the interval."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((jnp.sin(x @ v) - y) ** 2))(w)
    return w - 0.3 * g, loss


def main():
    x = jnp.array([[0.5, 1.0], [1.0, -0.5], [0.2, 0.2]])
    y = jnp.array([0.3, 0.1, 0.2])
    w = jnp.zeros(2)
    losses = []
    metrics = {"loss": losses, "name": "sin-reg"}
    for i in range(12):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        if i % 4 == 3:
            tail = metrics["loss"][-4:]
            print(f"{metrics['name']} {len(metrics['loss'])}: {sum(tail) / 4:.6f}")
    return w, losses
