"""The first params are registered on a class attribute (`Registry.initial = params`),
read after training by a classmethod.
"""

import jax
import jax.numpy as jnp


class Registry:
    initial = None

    @classmethod
    def distance(cls, params):
        return jnp.linalg.norm(params - cls.initial)


@jax.jit
def step(params, x):
    return params - 0.05 * jax.grad(lambda p: jnp.sum((x @ p - 1.0) ** 2))(params)


def main():
    x = jax.random.normal(jax.random.PRNGKey(7), (10, 3))
    params = jnp.ones(3) * 0.3
    for i in range(6):
        if i == 0:
            Registry.initial = params
        params = step(params, x)
    return params, Registry.distance(params)
