"""Two values appended to one list per step; the last pair printed every 3 steps."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g, loss, jnp.linalg.norm(g)


def main():
    x = jax.random.normal(jax.random.PRNGKey(2), (8, 2))
    y = x[:, 0]
    w = jnp.zeros(2)
    log = []
    for i in range(7):
        w, loss, gnorm = step(w, x, y)
        log.append(float(loss))
        log.append(float(gnorm))
        if i % 3 == 0:
            print(f"{i}: loss {log[-2]:.5f} gnorm {log[-1]:.5f}")
    return log
