"""An init function of the module whose result holds a module array as it is: the
leaves are distinct, but one of them is the global `EMBEDDING`, read after training.
Trap for AO201's interprocedural proof of new leaves: donating `params` deletes it."""

import jax
import jax.numpy as jnp

EMBEDDING = jnp.linspace(-1.0, 1.0, 4)


def init(key):
    return {"embed": EMBEDDING, "w": jax.random.normal(key, (4,))}


@jax.jit
def step(params):
    return {k: v * 0.9 for k, v in params.items()}


def main():
    params = init(jax.random.key(1))
    for _ in range(3):
        params = step(params)
    return params, EMBEDDING.sum()
