"""The initial leaves kept as a flat list (`jax.tree.leaves(params)`) for a histogram of
weight changes after training.
"""

import jax
import jax.numpy as jnp


@jax.jit
def update(params, x, y):
    def loss_fn(p):
        return jnp.mean((jnp.tanh(x @ p["a"]) @ p["b"] - y) ** 2)

    g = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, q: p - 0.1 * q, params, g)


def main():
    k1, k2 = jax.random.split(jax.random.PRNGKey(11))
    params = {"a": jax.random.normal(k1, (3, 4)), "b": jax.random.normal(k2, (4,))}
    x = jnp.linspace(-1, 1, 30).reshape(10, 3)
    y = x[:, 0] ** 2
    initial_leaves = jax.tree.leaves(params)
    for _ in range(5):
        params = update(params, x, y)
    return [
        jnp.abs(a - b).mean() for a, b in zip(jax.tree.leaves(params), initial_leaves, strict=True)
    ]
