"""A haiku net whose transformed function adds NumPy noise to its input: `net.apply`
draws new host random numbers on every eager call. Trap for AO101's purity of
`net.apply` (the function `hk.transform` was given is read): jitting `update` would
freeze the noise drawn at trace time."""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np

RNG = np.random.default_rng(0)


def net_fn(x):
    noise = np.random.normal(size=x.shape).astype(np.float32)
    return hk.Linear(1)(x + noise)


net = hk.without_apply_rng(hk.transform(net_fn))


def loss(params, x):
    return jnp.mean(net.apply(params, x) ** 2)


def update(params, x):
    value, grads = jax.value_and_grad(loss)(params, x)
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads), value


def main():
    np.random.seed(0)
    x = jnp.ones((4, 2))
    params = net.init(jax.random.PRNGKey(0), x)
    values = []
    for _ in range(5):
        params, value = update(params, x)
        values.append(value)
    return params, jnp.stack(values)
