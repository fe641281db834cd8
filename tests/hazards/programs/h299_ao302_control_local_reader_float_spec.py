"""Control for h265/h275/h287: the loop collects `float(loss)` into a fresh local list
read by nothing during the loop; it prints the loss itself, formatted. The list form
(one device_get after the loop) is correct."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return 0.5 * w + 0.5, jnp.sum((w - 1.0) ** 2)


def main():
    w = jnp.array([3.0, -1.0])
    losses = []
    for _ in range(6):
        w, loss = step(w)
        losses.append(float(loss))
    print("final", round(losses[-1], 6))
    return w, losses
