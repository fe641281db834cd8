"""A haiku model whose two layers take their weights from an initializer of another
module of the project, which returns one global array for both: `init` gives the same
buffer in two leaves of `params`. Trap for AO201: sealed model code may name imports of
the libraries the overlays know only; donating `params` donates that buffer twice, which
XLA refuses."""

import haiku as hk
import hazlib_h1104_init
import jax
import jax.numpy as jnp


def forward(x):
    x = hk.Linear(3, w_init=hazlib_h1104_init.table_init)(x)
    return hk.Linear(3, w_init=hazlib_h1104_init.table_init)(x)


net = hk.transform(forward)


@jax.jit
def step(params, x):
    return jax.tree_util.tree_map(lambda p: p * 0.5, params)


def main():
    params = net.init(jax.random.PRNGKey(0), jnp.ones((1, 3)))
    for _ in range(3):
        params = step(params, jnp.ones((1, 3)))
    return params
