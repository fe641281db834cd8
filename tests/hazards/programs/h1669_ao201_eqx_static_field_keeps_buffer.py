"""equinox: two models trained together, evaluated first by an `eqx.filter_jit` loss
given a probe, a function returning the generator's weight. The critic's `Box` is a
static field (`eqx.field(static=True)`), part of the pytree's structure, which
`eqx.filter_jit` hands its body as the very object: the loss appends what the probe
returns, the generator's real weight buffer, to the box's list. Trap for AO201
(`donate="all"` on the joint step): a class with an `eqx.field` is not read as inert;
donated together, the generator's first weight is deleted while the critic's static box
still holds it, read at the end."""

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


class Box:
    def __init__(self):
        self.items = []


class Generator(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jr.normal(key, (3,))


class Critic(eqx.Module):
    w: jax.Array
    box: Box = eqx.field(static=True)

    def __init__(self, key):
        self.w = jr.normal(key, (3,))
        self.box = Box()


@eqx.filter_jit
def loss(generator, critic, probe):
    critic.box.items.append(probe())
    return jnp.sum(generator.w * critic.w)


def scaled(model, rate):
    return jax.tree_util.tree_map(lambda v: rate * v, eqx.filter(model, eqx.is_array))


@eqx.filter_jit
def make_step(generator, critic, rate):
    generator = eqx.apply_updates(generator, scaled(generator, rate))
    critic = eqx.apply_updates(critic, scaled(critic, -rate))
    return generator, critic


def main():
    generator_key, critic_key = jr.split(jr.PRNGKey(0))
    generator = Generator(generator_key)
    critic = Critic(critic_key)
    before = loss(generator, critic, lambda: generator.w)
    for _ in range(3):
        generator, critic = make_step(generator, critic, 0.1)
    return before, generator.w, critic.w, float(critic.box.items[0].sum())
