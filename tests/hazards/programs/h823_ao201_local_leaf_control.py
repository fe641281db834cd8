"""Control for h820-h822 (style_optax_mlp's initialiser): each layer's weight is drawn
into a local in the loop body just before the one store that reads it. AO201 donates
`params` safely; the results are unchanged."""

import jax
import jax.numpy as jnp

SIZES = (3, 4, 2)


def init_params(key):
    params = []
    keys = jax.random.split(key, len(SIZES) - 1)
    for k, n_in, n_out in zip(keys, SIZES[:-1], SIZES[1:], strict=True):
        w = jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
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
