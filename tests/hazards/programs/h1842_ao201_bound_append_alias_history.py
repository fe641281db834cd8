"""plain jax: the loop records the weights through a bound method alias (`keep =
history.append`, then `keep(w)`), the list read after training. Trap for AO201:
donating `w` deletes the arrays the history holds."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, g):
    return w - 0.5 * g * w


def main():
    w = jnp.array([1.0, 2.0, 3.0])
    g = jnp.array([0.1, 0.2, 0.3])
    history = []
    keep = history.append
    for _ in range(3):
        w = step(w, g)
        keep(w)
    return jnp.stack(history)
