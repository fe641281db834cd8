"""A jitted step takes the epoch as a static argument (it switches the loss in
Python); the loop collects `float(loss)` per epoch. Run as one scan, the epoch would
have to be traced."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def step(w, epoch):
    if epoch < 3:  # noqa: SIM108
        loss_fn = lambda v: jnp.sum(v**2)  # noqa: E731
    else:
        loss_fn = lambda v: jnp.sum(jnp.abs(v))  # noqa: E731
    loss, g = jax.value_and_grad(loss_fn)(w)
    return w - 0.1 * g, loss


def main():
    w = jnp.array([1.0, -2.0])
    losses = []
    for epoch in range(6):
        w, loss = step(w, epoch)
        losses.append(float(loss))
    return w, losses
