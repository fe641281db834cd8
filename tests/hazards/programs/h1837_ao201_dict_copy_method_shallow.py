"""plain jax: `snapshot = params.copy()` before the loop (a dict's `copy`, shallow: the
same arrays); the jitted step replaces `params`; the program returns both. Trap for
AO201: donating `params` deletes the arrays the snapshot holds."""

import jax
import jax.numpy as jnp


@jax.jit
def step(params, lr):
    return {"a": params["a"] - lr * params["b"], "b": params["b"] * 0.9}


def main():
    params = {"a": jnp.array([1.0, 2.0]), "b": jnp.array([0.5, 0.5])}
    snapshot = params.copy()
    for _ in range(3):
        params = step(params, 0.1)
    return params, snapshot
