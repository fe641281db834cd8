"""plain jax: the per-sample temperatures are set with `temps =
jnp.broadcast_to(base, (4,))` where `base` already has shape (4,), so the result is
`base` itself; the jitted annealing step replaces `temps`. Trap for AO201: donating
`temps` deletes `base`, returned at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def anneal(temps, rate):
    return temps * (1.0 - rate)


def main():
    base = jnp.array([1.0, 2.0, 4.0, 8.0])
    temps = jnp.broadcast_to(base, (4,))
    for _ in range(3):
        temps = anneal(temps, 0.1)
    return temps, base
