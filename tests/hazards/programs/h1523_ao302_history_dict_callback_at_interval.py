"""History dict of lists handed to a callback every k steps."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    pred = x @ w
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    acc = jnp.mean(jnp.sign(pred) == jnp.sign(y))
    return w - 0.1 * g, loss, acc


class Printer:
    def __init__(self):
        self.calls = 0

    def __call__(self, history):
        self.calls += 1
        print(f"call {self.calls}: {len(history['loss'])} losses, last {history['loss'][-1]:.5f}")


def main():
    x = jax.random.normal(jax.random.PRNGKey(3), (16, 3))
    y = x @ jnp.array([1.0, 0.5, -0.5])
    w = jnp.zeros(3)
    history = {"loss": [], "acc": []}
    cb = Printer()
    for i in range(9):
        w, loss, acc = step(w, x, y)
        history["loss"].append(float(loss))
        history["acc"].append(float(acc))
        if i % 3 == 2:
            cb(history)
    return history
