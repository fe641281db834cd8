"""An MLP initialiser that binds its weight `w` once, before the loop, and stores it in
every layer's dict: every layer holds the same buffer. Trap for AO201's proof that a
local stored into a list is a leaf made for that store: `w` is not bound in the loop
body, so donating `params` would hand XLA one buffer twice and raise."""

import jax
import jax.numpy as jnp

SIZES = (3, 3, 3)


def init_params(key):
    params = []
    w = jax.random.normal(key, (3, 3))
    for n_out in SIZES[1:]:
        params.append({"w": w, "b": jnp.zeros(n_out)})
    return params


@jax.jit
def step(params):
    return jax.tree.map(lambda p: p * 0.9 + 0.01, params)


def main():
    params = init_params(jax.random.PRNGKey(0))
    for _ in range(4):
        params = step(params)
    return params
