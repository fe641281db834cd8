"""equinox: two models trained together, evaluated first by an `eqx.filter_jit` loss
given a probe, a function returning the generator's weight. The critic's other leaf is a
function of the module, which `eqx.filter_jit` hands its body as the very object: the
loss sets an attribute of it to what the probe returns, the generator's real weight
buffer. Trap for AO201 (`donate="all"` on the joint step): a function is inert only
where no code sets its attributes (the module stores none but fields in `__init__`);
donated together, the generator's first weight is deleted while the critic's function
still holds it, read at the end."""

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


def act(x):
    return x


class Generator(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jr.normal(key, (3,))


class Critic(eqx.Module):
    w: jax.Array
    f: object

    def __init__(self, key):
        self.w = jr.normal(key, (3,))
        self.f = act


@eqx.filter_jit
def loss(generator, critic, probe):
    critic.f.kept = probe()
    return jnp.sum(generator.w * critic.f(critic.w))


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
    return before, generator.w, critic.w, float(critic.f.kept.sum())
