"""A snapshot of the parameters taken with `np.asarray(params)` before training: of a
dict, NumPy makes a 0-d object array that holds the dict itself, its JAX arrays
included. Trap for AO201: a host copy is new memory only of an array; donating
`params` deletes the very array the snapshot holds, read at the end."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(params, x):
    return {"w": params["w"] - 0.1 * x}


def main():
    params = {"w": jnp.ones(3)}
    snap = np.asarray(params)
    x = jnp.arange(3.0)
    for i in range(3):
        params = step(params, x)
        print("step", i)
    return params["w"], snap.item()["w"]
