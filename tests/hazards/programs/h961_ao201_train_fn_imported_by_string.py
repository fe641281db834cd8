"""A script module whose `train(params, xs)` loop lets its parameter go; its own `main`
passes a fresh array. Trap for AO201 across files: h962 loads this module with
`importlib.import_module` (a name in a string) and passes params it reads afterwards, so
donating `train`'s parameter breaks that program."""

import jax
import jax.numpy as jnp


@jax.jit
def step(params, x):
    return 0.5 * params + 0.5 * x


def train(params, xs):
    for x in xs:
        params = step(params, x)
    return params


def main():
    return train(jnp.zeros(2), [jnp.ones(2), jnp.full(2, 3.0)])
