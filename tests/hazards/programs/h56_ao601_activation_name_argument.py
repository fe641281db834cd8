"""Deep MLP whose blocks take their activation by name (looked up in a dict), applied
in a Python loop under `jax.grad`. Trap for AO601: `jax.checkpoint` traces every
argument, and the activation name, a string, is not a JAX type."""

import jax
import jax.numpy as jnp
import numpy as np

ACTIVATIONS = {"gelu": jax.nn.gelu, "tanh": jnp.tanh, "silu": jax.nn.silu}
SCHEDULE = ("gelu", "tanh", "silu", "gelu", "tanh")


def block(h, w, activation):
    return h + ACTIVATIONS[activation](h @ w)


def loss(ws, x):
    h = x
    for w, activation in zip(ws, SCHEDULE, strict=True):
        h = block(h, w, activation)
    return jnp.mean(h**2)


def main():
    rng = np.random.default_rng(19)
    ws = [jnp.asarray(rng.normal(size=(6, 6)) * 0.2, jnp.float32) for _ in SCHEDULE]
    x = jnp.asarray(rng.normal(size=(4, 6)), jnp.float32)
    return jax.grad(loss)(ws, x)
