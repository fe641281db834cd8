"""DQN-style target: the target parameters are made with
`jax.lax.stop_gradient(params)`, which eagerly returns the very same arrays; the
online parameters are updated by a jitted step and the target is read after the
loop to report how far the online network moved."""

import jax
import jax.numpy as jnp


def q_values(params, s):
    return jnp.tanh(s @ params["w"]) @ params["v"]


@jax.jit
def learn(params, s, r):
    def loss(p):
        return jnp.mean((q_values(p, s) - r) ** 2)

    g = jax.grad(loss)(params)
    return jax.tree.map(lambda p, d: p - 0.2 * d, params, g)


def main():
    s = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    r = jnp.array([0.0, 1.0, 0.5, -0.5])
    params = {"w": jnp.array([[0.5, -0.3], [0.2, 0.8]]), "v": jnp.array([1.0, -1.0])}
    target = jax.lax.stop_gradient(params)
    for _ in range(10):
        params = learn(params, s, r)
    gap = jax.tree.map(lambda a, b: jnp.abs(a - b).max(), params, target)
    return params, gap
