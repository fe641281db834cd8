"""equinox: two models trained in turn (a GAN's shape). The critic carries a `Probe`, an
object equinox treats as a static leaf, that holds the generator's first weights; the
critic's step hands it back as it is (`eqx.filter_jit` returns non-array leaves as the
very objects). Trap for AO201 (`donate="all-except-first"` on the generator's step): the
kept critic's probe holds a buffer of the donated generator, read at the end."""

import equinox as eqx
import jax.numpy as jnp


class Probe:
    """Not a pytree: a non-array leaf that holds an array."""

    def __init__(self, array):
        self.array = array


@eqx.filter_jit
def step_critic(critic, gen):
    new = {"w": critic["w"] + 0.1 * jnp.sum(gen["w"]), "probe": gen["probe"]}
    return jnp.sum(new["w"]), new


@eqx.filter_jit
def step_gen(gen, critic):
    new = {"w": gen["w"] - 0.1 * jnp.sum(critic["w"]), "probe": gen["probe"]}
    return jnp.sum(new["w"]), new


def main():
    w = jnp.linspace(0.0, 1.0, 4)
    gen = {"w": w, "probe": Probe(w)}
    critic = {"w": jnp.ones(4), "probe": None}
    losses = []
    for _ in range(3):
        loss_c, critic = step_critic(critic, gen)
        loss_g, gen = step_gen(gen, critic)
        losses.append((loss_c, loss_g))
    return losses, critic["probe"].array
