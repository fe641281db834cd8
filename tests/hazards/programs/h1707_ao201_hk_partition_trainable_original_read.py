"""Haiku fine-tuning: `hk.data_structures.partition` splits the head off as trainable;
the trainable part is stepped, and the original `params` (same leaves) evaluated after.
"""

import haiku as hk
import jax
import jax.numpy as jnp


def forward(x):
    h = jax.nn.relu(hk.Linear(8, name="body")(x))
    return hk.Linear(1, name="head")(h)[:, 0]


net = hk.without_apply_rng(hk.transform(forward))


@jax.jit
def step(trainable, frozen, x, y):
    def loss_fn(t):
        return jnp.mean((net.apply(hk.data_structures.merge(t, frozen), x) - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(trainable)
    return jax.tree.map(lambda a, b: a - 0.05 * b, trainable, g), loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (16, 4))
    y = x[:, 0] - x[:, 2]
    params = net.init(jax.random.PRNGKey(1), x)
    trainable, frozen = hk.data_structures.partition(lambda m, n, p: m == "head", params)
    for _ in range(5):
        trainable, loss = step(trainable, frozen, x, y)
    before = jnp.mean((net.apply(params, x) - y) ** 2)
    return loss, before
