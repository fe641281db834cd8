"""A haiku MLP given an activation of the program that counts its calls in a global
list: `net.apply` runs it on every eager call. Trap for AO101's purity of `net.apply`
and of a haiku module's function arguments: jitting `update` would run the activation
once, at trace time, and the count read after training would change."""

import haiku as hk
import jax
import jax.numpy as jnp

CALLS = []


def act(v):
    CALLS.append(1)
    return jnp.tanh(v)


def net_fn(x):
    return hk.nets.MLP([3, 1], activation=act)(x)


net = hk.without_apply_rng(hk.transform(net_fn))


def loss(params, x):
    return jnp.mean(net.apply(params, x) ** 2)


def update(params, x):
    value, grads = jax.value_and_grad(loss)(params, x)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads), value


def main():
    x = jnp.ones((4, 2))
    params = net.init(jax.random.PRNGKey(0), x)
    for _ in range(5):
        params, value = update(params, x)
    return params, value, len(CALLS)
