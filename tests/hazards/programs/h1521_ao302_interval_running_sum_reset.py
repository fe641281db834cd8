"""Running loss sum printed and reset every k steps."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((jnp.tanh(x @ w) - y) ** 2))(w)
    return w - 0.2 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (20, 2))
    y = jnp.sign(x[:, 0])
    w = jnp.array([0.1, 0.1])
    running = 0.0
    report = []
    for i in range(1, 13):
        w, loss = step(w, x, y)
        running += float(loss)
        if i % 4 == 0:
            report.append(running / 4)
            print(f"[{i}] avg loss {running / 4:.6f}")
            running = 0.0
    return report, running
