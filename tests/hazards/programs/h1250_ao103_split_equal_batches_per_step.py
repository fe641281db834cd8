"""A device-resident dataset cut once with `jnp.split(xs, 4)` into equal batches (a
Python list) and an eager SGD loop over `range(n_batches)` with the update glue inline.
Trap for AO103: `batches` is a list; a compiled step or scan that indexes it with the
traced loop index fails."""

import jax
import jax.numpy as jnp


def loss_fn(w, xb):
    return jnp.mean((xb @ w - 1.0) ** 2)


def main():
    xs = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    n_batches = 4
    batches = jnp.split(xs, n_batches)
    w = jnp.zeros(3)
    for epoch in range(2):  # noqa: B007
        for b in range(n_batches):
            g = jax.grad(loss_fn)(w, batches[b])
            w = w - 0.2 * g
    return w
