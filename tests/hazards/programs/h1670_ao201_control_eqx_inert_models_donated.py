"""equinox control (for h1667-h1669): two models trained together, evaluated first by an
`eqx.filter_jit` loss. Their fields are arrays, numbers, a sealed layer and a function of
the module nothing sets attributes on (`facts/inert_modules.py`): the loss's body sees
tracers of their arrays and nothing else of the caller's it could keep or change, so
donating both (`donate="all-except-first"`, the batch moved first) is proven and keeps
every result."""

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


def lipswish(x):
    return 0.909 * jax.nn.silu(x)


class Generator(eqx.Module):
    linear: eqx.nn.Linear
    scale: int

    def __init__(self, size, *, key):
        self.linear = eqx.nn.Linear(size, size, key=key)
        self.scale = 2


class Critic(eqx.Module):
    mlp: eqx.nn.MLP
    offset: jax.Array

    def __init__(self, size, *, key):
        mlp_key, offset_key = jr.split(key)
        self.mlp = eqx.nn.MLP(size, "scalar", 8, 1, activation=lipswish, key=mlp_key)
        self.offset = jr.normal(offset_key, ())


@eqx.filter_jit
def loss(generator, critic, x):
    fake = jax.vmap(generator.linear)(x) * generator.scale
    return jnp.mean(jax.vmap(critic.mlp)(fake)) + critic.offset


def scaled(grads, rate):
    return jax.tree_util.tree_map(lambda v: rate * v, grads)


@eqx.filter_jit
def make_step(generator, critic, x):
    grads = eqx.filter_grad(lambda pair: loss(pair[0], pair[1], x))((generator, critic))
    generator = eqx.apply_updates(generator, scaled(grads[0], -0.1))
    critic = eqx.apply_updates(critic, scaled(grads[1], 0.1))
    return generator, critic


def main():
    generator_key, critic_key = jr.split(jr.PRNGKey(0))
    generator = Generator(3, key=generator_key)
    critic = Critic(3, key=critic_key)
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    before = loss(generator, critic, x)
    for _ in range(3):
        generator, critic = make_step(generator, critic, x)
    return before, loss(generator, critic, x), generator.linear.weight, critic.offset
