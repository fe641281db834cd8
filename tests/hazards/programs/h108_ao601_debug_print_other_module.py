"""Residual stack whose scan body logs through a helper of another module of the
project, which calls `jax.debug.print` under another name. Trap for AO601: the helper
is pure to jit, but checkpointing the body prints every line again on the backward
pass."""

import hazlib_trace
import jax
import jax.numpy as jnp


def block(h, w):
    h = h + jnp.tanh(h @ w)
    return hazlib_trace.log_norm("block", h), None


def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.mean(h**2)


def main():
    ws = jnp.stack([jnp.eye(3) * (0.2 * (i + 1)) for i in range(4)])
    x = jnp.array([[0.5, -1.0, 0.25]])
    return jax.grad(loss)(ws, x)
