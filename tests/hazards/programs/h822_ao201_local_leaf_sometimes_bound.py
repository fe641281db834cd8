"""An initialiser that draws a new weight only for wide layers and otherwise stores the
previous layer's `w` again: two dicts hold one buffer. Trap for AO201's proof that a
local stored into a list is a leaf made for that store: the binding is under an `if`,
not in the store's own block, so donating `params` would hand XLA one buffer twice."""

import jax
import jax.numpy as jnp

SIZES = (3, 4, 3, 3)


def init_params(key):
    params = []
    w = jnp.ones((3, 3))
    keys = jax.random.split(key, len(SIZES) - 1)
    for k, n_out in zip(keys, SIZES[1:], strict=True):
        if n_out > 3:
            w = jax.random.normal(k, (3, 3))
        params.append({"w": w, "b": jnp.zeros(3)})
    return params


@jax.jit
def step(params):
    return jax.tree.map(lambda p: p * 0.9 + 0.01, params)


def main():
    params = init_params(jax.random.PRNGKey(0))
    for _ in range(4):
        params = step(params)
    return params
