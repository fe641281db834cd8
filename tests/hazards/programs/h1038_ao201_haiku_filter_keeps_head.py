"""haiku: before fine-tuning, the head's parameters are set aside with
`hk.data_structures.filter(lambda m, n, v: m.startswith("head"), params)` to compare
against later. `filter` builds a new mapping of the same arrays. Trap for AO201:
donating `params` deletes the head kept aside."""

import haiku as hk
import jax
import jax.numpy as jnp


def forward(x):
    h = jax.nn.tanh(hk.Linear(4, name="body")(x))
    return hk.Linear(1, name="head")(h)


net = hk.without_apply_rng(hk.transform(forward))


@jax.jit
def update(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.linspace(-1.0, 1.0, 16).reshape(8, 2)
    y = jnp.sum(x**2, axis=1, keepdims=True)
    params = net.init(jax.random.PRNGKey(3), x)
    head0 = hk.data_structures.filter(lambda m, n, v: m.startswith("head"), params)
    for _ in range(6):
        params = update(params, x, y)
    return jax.tree.map(lambda a, b: jnp.sum((a - b) ** 2), params["head"], head0["head"])
