"""Per-example loss that reports every example's value to a host list with
`jax.debug.callback`; the list is returned with the losses."""

import jax
import jax.numpy as jnp

SEEN = []


def note(v):
    SEEN.append(round(float(v), 5))


def example_loss(x):
    loss = jnp.sum((x - 0.5) ** 2)
    jax.debug.callback(note, loss)
    return loss


def main():
    data = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    losses = jnp.stack([example_loss(x) for x in data])
    jax.effects_barrier()
    return losses, list(SEEN)
