"""Control (for h1381-h1386): `loss = float(loss)` only feeds a list whose mean is printed
every 4 steps. AO302's fed form keeps `loss` on the device and converts the pending values
into the list just before the print and after the loop: the same lines, the same list."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step_fn(w, x):
    return w - 0.1 * x * (w * x - 1.0), jnp.mean((w * x - 1.0) ** 2)


def main():
    w = jnp.ones(3)
    losses = []
    for step in range(10):
        w, loss = step_fn(w, jnp.cos(w + step))
        loss = float(loss)
        losses.append(loss)
        if step % 4 == 3:
            print(f"step {step}: {np.mean(losses[-4:]):.6f}")
            losses.pop(0)
    return w, losses
