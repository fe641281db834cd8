"""`jax.device_get(metrics)` appended each step; a table printed every 3 steps."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, {"loss": loss, "gnorm": jnp.linalg.norm(g)}


def main():
    x = jax.random.normal(jax.random.PRNGKey(4), (12, 3))
    y = x[:, 1] * 3.0
    w = jnp.zeros(3)
    log = []
    for i in range(8):
        w, metrics = step(w, x, y)
        log.append(jax.device_get(metrics))
        if i % 3 == 0:
            last = log[-1]
            print(
                f"{i:3d} loss={float(last['loss']):.5f} gnorm={float(last['gnorm']):.5f} n={len(log)}"  # noqa: E501
            )
    return [m["loss"] for m in log]
