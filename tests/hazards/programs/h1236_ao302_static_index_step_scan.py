"""Cyclic learning-rate phases picked by a static argument: `train_step(w, x, phase)`
with `static_argnames="phase"` and `phase = i % 3`, used as a Python int to index a
tuple of rates. Trap for AO302: turned into one `lax.scan`, `phase` is traced and can
no longer be static (or index a tuple)."""

import functools

import jax
import jax.numpy as jnp

RATES = (0.1, 0.05, 0.01)


@functools.partial(jax.jit, static_argnames="phase")
def train_step(w, x, phase):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((v - x) ** 2))(w)
    return w - RATES[phase] * g, loss


def main():
    w = jnp.zeros(2)
    x = jnp.array([1.0, -1.0])
    losses = []
    for i in range(9):
        w, loss = train_step(w, x, phase=i % 3)
        losses.append(loss.item())
    return w, losses
