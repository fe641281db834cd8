"""A GAN's generator and discriminator are kept in one list; a store through the list
puts the generator's weight array into the discriminator. Trap for AO201: the step
takes both, so donating the generator deletes the array the discriminator still reads
in the same call (a value only holding both, the list, would be no alias; the store is)."""

import jax
import jax.numpy as jnp


@jax.jit
def step(gen, disc):
    return {"w": gen["w"] - 0.1 * disc["w"], "b": gen["b"] + disc["b"]}


def main():
    gen = {"w": jnp.ones(3), "b": jnp.zeros(3)}
    disc = {"w": jnp.full(3, 2.0), "b": jnp.ones(3)}
    models = [gen, disc]
    models[1]["w"] = gen["w"]
    for _ in range(5):
        gen = step(gen, disc)
    return gen, disc
