"""A small MLP whose hidden bias starts from a module-level prior, written
`jnp.broadcast_to(B0, (HIDDEN,))` so that a scalar prior would also work; `B0` already
has that shape, so `broadcast_to` returns `B0` itself. Trap for AO201: donating
`params` deletes `B0`, read after training to report the bias shift."""

import jax
import jax.numpy as jnp

HIDDEN = 3
B0 = jnp.array([0.1, -0.1, 0.05])


def init_params():
    w1 = jnp.arange(2.0 * HIDDEN).reshape(2, HIDDEN) / 10.0
    return {"w1": w1, "b1": jnp.broadcast_to(B0, (HIDDEN,)), "w2": jnp.ones((HIDDEN,)) * 0.2}


@jax.jit
def step(params, x, y):
    def loss(p):
        h = jnp.tanh(x @ p["w1"] + p["b1"])
        return jnp.mean((h @ p["w2"] - y) ** 2)

    g = jax.grad(loss)(params)
    return jax.tree.map(lambda p, d: p - 0.5 * d, params, g)


def main():
    x = jnp.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, -0.5]])
    y = jnp.array([0.3, -0.2, 0.5, 0.0])
    params = init_params()
    for _ in range(8):
        params = step(params, x, y)
    return params, params["b1"] - B0
