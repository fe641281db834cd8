"""Control (for h591): the generator and discriminator are kept in one list that is
read before the loop only; neither holds the other's arrays, so donating the generator
leaves the discriminator intact."""

import jax
import jax.numpy as jnp


@jax.jit
def step(gen, disc):
    return {"w": gen["w"] - 0.1 * disc["w"], "b": gen["b"] + disc["b"]}


def main():
    gen = {"w": jnp.ones(3), "b": jnp.zeros(3)}
    disc = {"w": jnp.full(3, 2.0), "b": jnp.ones(3)}
    models = [gen, disc]
    print(len(models))
    for _ in range(5):
        gen = step(gen, disc)
    return gen, disc
