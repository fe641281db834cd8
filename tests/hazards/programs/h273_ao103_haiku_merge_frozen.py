"""haiku fine-tuning: the trainable and frozen parameters are merged with
`hk.data_structures.merge` for every forward pass; the frozen part is reported at
the end. An eager loop does the gradient step on the trainable part only."""

import haiku as hk
import jax
import jax.numpy as jnp


def net(x):
    h = hk.Linear(4, name="body")(x)
    return hk.Linear(1, name="head")(jnp.tanh(h))


model = hk.without_apply_rng(hk.transform(net))


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.sum(x, axis=1, keepdims=True)
    params = model.init(jax.random.PRNGKey(0), x)
    trainable, frozen = hk.data_structures.partition(lambda m, n, p: m.startswith("head"), params)

    def loss_fn(tr):
        return jnp.mean((model.apply(hk.data_structures.merge(tr, frozen), x) - y) ** 2)

    for _ in range(8):
        g = jax.grad(loss_fn)(trainable)
        trainable = jax.tree.map(lambda p, d: p - 0.1 * d, trainable, g)
    return trainable, frozen
