"""A user init fills its parameter list by appends, and appends the same array twice
(a tied weight: `params.append(w)` for both layers). Trap for AO201: the list's leaves
are not distinct buffers; donating `params` to the jitted update would donate one
buffer twice."""

import jax
import jax.numpy as jnp


def init(key):
    params = []
    w = jax.random.normal(key, (4, 4)) * 0.1
    params.append(w)
    params.append(w)
    params.append(jnp.zeros((4,)))
    return params


@jax.jit
def update(params, x):
    grads = jax.grad(lambda p: jnp.sum(jnp.tanh(p[1] @ jnp.tanh(p[0] @ x) + p[2])))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    params = init(jax.random.PRNGKey(1))
    x = jnp.linspace(-1.0, 1.0, 4)
    params = update(params, x)
    params = update(params, x * 2.0)
    return params
