"""A GAN-like step: the generator is read by the next step (kept), the discriminator and
its momentum are replaced, and the batch is an expression (`images.sum(0)`) that moves
before the local name it followed. Trap for AO201's keep-first form: only the replaced
arguments may be donated, and each argument must reach its own parameter."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(disc, gen, batch, mom):
    mom = 0.5 * mom + (disc * gen - batch)
    return disc - 0.1 * mom, mom


def main():
    images = jnp.arange(12.0).reshape(4, 3) / 10.0
    gen = jnp.array([1.0, -1.0, 0.5])
    disc, mom = jnp.ones(3), jnp.zeros(3)
    for _ in range(4):
        disc, mom = step(disc, gen, images.sum(0), mom)
    return disc, mom, gen
