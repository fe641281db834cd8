"""Mixed-precision style: the loop keeps float32 "master" weights made with
`jax.tree.map(lambda p: p.astype(jnp.float32), params)`. The params are float32
already, so `astype` returns the same arrays. Trap for AO201: donating `params` deletes
the master copy, which the loop reads to report the drift."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(params, x, y):
    def loss_fn(p):
        return jnp.mean((jnp.tanh(x @ p["w1"]) @ p["w2"] - y) ** 2)

    grads = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, g: p - 0.2 * g, params, grads)


def main():
    key1, key2 = jax.random.split(jax.random.PRNGKey(4))
    params = {
        "w1": jax.random.normal(key1, (3, 4)) * 0.5,
        "w2": jax.random.normal(key2, (4, 1)) * 0.5,
    }
    master = jax.tree.map(lambda p: p.astype(jnp.float32), params)
    x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
    y = jnp.sum(x, axis=1, keepdims=True)
    for _ in range(5):
        params = sgd_step(params, x, y)
    pairs = zip(jax.tree.leaves(params), jax.tree.leaves(master), strict=True)
    drift = sum(jnp.sum((a - b) ** 2) for a, b in pairs)
    return params["w2"], drift
