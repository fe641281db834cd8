"""AO302 trap: the loss read on the host every step is also handed to a donating jit.

Keeping `loss` on the device for the list (AO302) hands the donated buffer to the list:
the next read of the list finds it deleted. Found by the AO301 donation helper.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.5, jnp.sum(w)


def consume_impl(x):
    return x * 2.0


consume = jax.jit(consume_impl, donate_argnums=0)


def main():
    w = jnp.ones(4)
    losses = []
    total = 0.0
    for _ in range(5):
        w, loss = step(w)
        losses.append(float(loss))
        total = total + consume(loss)
    return losses, total
