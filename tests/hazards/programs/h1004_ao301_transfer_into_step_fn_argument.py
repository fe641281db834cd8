"""A generic `run(step_fn, mask_np, n)` helper loops over a step it is handed; the
caller passes `jax.jit(apply_mask, donate_argnums=(0, 1))`. Inside `run` the host mask
is converted with `jnp.asarray(mask_np)` every iteration. Trap for AO301: the callee is
a parameter, code autoopt cannot see; it donates the mask, so a hoisted transfer is
deleted by the first call."""

import jax
import jax.numpy as jnp
import numpy as np


def apply_mask(w, mask):
    return w * mask + 0.1, mask


def run(step_fn, mask_np, n):
    w = jnp.ones(4)
    for _ in range(n):
        w, _ = step_fn(w, jnp.asarray(mask_np))
    return w


def main():
    step = jax.jit(apply_mask, donate_argnums=(0, 1))
    return run(step, np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32), 5)
