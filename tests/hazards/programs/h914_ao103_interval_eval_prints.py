"""An eager counted loop with an interval evaluation: every 3 steps `evaluate` prints
the validation loss. Trap for AO103 (whole-loop scan): the print inside `evaluate`
would run once at trace time, not at steps 0, 3, 6."""

import jax.numpy as jnp


def evaluate(step, w, xv, yv):
    val = jnp.mean((xv @ w - yv) ** 2)
    print(f"step {step}: val {float(val):.5f}")
    return val


def main():
    x = jnp.array([[1.0, 2.0], [0.5, -1.0]])
    y = jnp.array([1.0, 0.0])
    w = jnp.zeros(2)
    vals = []
    for step in range(8):
        grad = 2.0 * x.T @ (x @ w - y) / 2
        w = w - 0.1 * grad
        if step % 3 == 0:
            vals.append(evaluate(step, w, x + 0.1, y))
    return w, vals
