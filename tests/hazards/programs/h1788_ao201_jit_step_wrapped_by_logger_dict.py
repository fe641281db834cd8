"""plain jax: steps kept in a dict (`steps["train"] = jax.jit(sgd)`), later wrapped by a
logger that keeps the inputs it saw (`steps["train"] = logged(steps["train"])`). Trap
for AO201: donating the jitted function's input deletes the arrays the logger kept."""

import jax
import jax.numpy as jnp

SEEN = []


def sgd(w, g):
    return w - 0.1 * g


steps = {"train": jax.jit(sgd)}


def logged(fn):
    def wrapper(w, g):
        SEEN.append(w)
        return fn(w, g)

    return wrapper


steps["train"] = logged(steps["train"])


def main():
    w = jnp.ones(3)
    g = jnp.arange(3.0)
    for _ in range(3):
        w = steps["train"](w, g)
    return w, [s.sum() for s in SEEN]
