"""A hand-written training loop, eager: `jax.value_and_grad(loss_fn)` where `loss_fn`
reads the module global `WEIGHT_DECAY`, which a helper called at the end of each
iteration anneals with `global`. Trap for AO103: compiled as one step, the decay the
loss reads is the one of the first trace."""

import jax
import jax.numpy as jnp

WEIGHT_DECAY = 0.5


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2) + WEIGHT_DECAY * jnp.sum(w**2)


def anneal():
    global WEIGHT_DECAY
    WEIGHT_DECAY = WEIGHT_DECAY * 0.25


def main():
    x = jnp.array([[1.0, 0.0], [0.5, 1.0], [0.0, 2.0]])
    y = jnp.array([1.0, 2.0, 3.0])
    w = jnp.zeros(2)
    losses = []
    for _ in range(5):
        loss, g = jax.value_and_grad(loss_fn)(w, x, y)
        w = w - 0.1 * g
        losses.append(loss)
        anneal()
    return w, jnp.stack(losses)
