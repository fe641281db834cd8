"""plain jax: the loss list starts with the initial loss (`losses = [loss0]`) and is
also reachable as `log["losses"]`; a jitted step's losses are appended every iteration.
Trap for AO103 (whole loop): the compiled loop must extend the same list object after
the initial entry, so both names see every loss in order."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss = jnp.sum((w - x) ** 2)
    return w - 0.2 * (w - x), loss


def main():
    x = jnp.array([2.0, -1.0])
    w = jnp.zeros(2)
    losses = [jnp.sum((w - x) ** 2)]
    log = {"losses": losses}
    for _ in range(4):
        w, loss = step(w, x)
        losses.append(loss)
    return log, len(losses)
