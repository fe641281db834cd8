"""The initial parameters are kept for a later comparison as
`init = types.SimpleNamespace(**params)`, a "frozen view" of the dict. The namespace
holds the parameter arrays themselves. Trap for AO201: donating `params` deletes them."""

import types

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, x, y):
    def loss(p):
        return jnp.mean((jnp.tanh(x @ p["w"]) * p["s"] - y) ** 2)

    g = jax.grad(loss)(params)
    return {k: params[k] - 0.2 * g[k] for k in params}


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    y = jnp.sin(x[:, 0])
    params = {"w": jnp.array([0.4, -0.4]), "s": jnp.array(1.0)}
    init = types.SimpleNamespace(**params)
    for _ in range(7):
        params = train_step(params, x, y)
    return params["w"] - init.w, params["s"] - init.s
