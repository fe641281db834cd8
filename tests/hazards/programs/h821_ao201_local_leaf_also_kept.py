"""An MLP initialiser that draws each layer's weight into a local `w`, stores it in the
layer's dict and keeps it in a second list, `drawn`, which the program returns and reads
after training. Trap for AO201's proof that a local stored into a list is a leaf made
for that store: `w` is read a second time, so donating `params` would delete the
buffers `drawn` holds."""

import jax
import jax.numpy as jnp

SIZES = (3, 4, 2)


def init_params(key, drawn):
    params = []
    keys = jax.random.split(key, len(SIZES) - 1)
    for k, n_in, n_out in zip(keys, SIZES[:-1], SIZES[1:], strict=True):
        w = jax.random.normal(k, (n_in, n_out))
        params.append({"w": w, "b": jnp.zeros(n_out)})
        drawn.append(w)
    return params


@jax.jit
def step(params):
    return jax.tree.map(lambda p: p * 0.9 + 0.01, params)


def main():
    drawn = []
    params = init_params(jax.random.PRNGKey(0), drawn)
    for _ in range(4):
        params = step(params)
    return params, [jnp.sum(w) for w in drawn]
