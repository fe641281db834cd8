"""Equinox: a model class whose `__init__` stores one array in two fields (`self.w_enc`
and `self.w_dec`, tied by construction), trained with `eqx.filter_jit`.
"""

import equinox as eqx
import jax
import jax.numpy as jnp


class TiedAE(eqx.Module):
    w_enc: jax.Array
    w_dec: jax.Array

    def __init__(self, key):
        w = jax.random.normal(key, (4, 2)) * 0.3
        self.w_enc = w
        self.w_dec = w

    def __call__(self, x):
        return jnp.tanh(x @ self.w_enc) @ self.w_dec.T


@eqx.filter_jit
def step(model, x):
    loss, g = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - x) ** 2))(model)
    return eqx.apply_updates(model, jax.tree.map(lambda t: -0.1 * t, g)), loss


def main():
    model = TiedAE(jax.random.PRNGKey(0))
    x = jax.random.normal(jax.random.PRNGKey(1), (6, 4))
    for _ in range(4):
        model, loss = step(model, x)
    return loss, model.w_dec.sum()
