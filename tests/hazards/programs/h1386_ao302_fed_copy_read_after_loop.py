"""The host copy of the last loss is returned after the loop (`return w, losses, loss`).
Trap for AO302's fed form: dropping the copy would return the device array, not the
Python float."""

import jax
import jax.numpy as jnp


@jax.jit
def step_fn(w, x):
    return w - 0.1 * x * (w * x - 1.0), jnp.mean((w * x - 1.0) ** 2)


def main():
    w = jnp.ones(3)
    losses = []
    loss = 0.0
    for step in range(10):
        w, loss = step_fn(w, jnp.cos(w + step))
        loss = float(loss)
        losses.append(loss)
        if step % 5 == 4:
            print(f"step {step}: {sum(losses[-5:]) / 5:.6f}")
    return w, losses, loss
