"""A user init fills its parameter list by appends of arrays in its own body, and a
nested helper appends a Python int (the number of layers) to the same list. Trap for
AO101: only the init's own appends are arrays; a jitted `score` would be handed the
int as a traced int32, and `2**40` does not fit (eagerly it is a Python int)."""

import jax
import jax.numpy as jnp


def init(key):
    params = []
    params.append(jax.random.normal(key, (3, 3)))

    def record(count):
        params.append(count)

    record(2**40)
    return params


def score(params, x):
    return jnp.sum(params[0] @ x) * (params[1] > 0)


def main():
    params = init(jax.random.PRNGKey(2))
    x = jnp.ones((3,))
    return [score(params, x + k) for k in range(3)]
