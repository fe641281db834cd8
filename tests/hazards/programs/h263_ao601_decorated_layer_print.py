# BROKEN by the default rewrite (AO601, safe fix applied).
# Fix: the scan body `block` is wrapped as `block_remat = jax.checkpoint(block,
# prevent_cse=False, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)`.
# `block` is the wrapper made by the `@traced` decorator, which calls
# `jax.debug.print`; the premise "stages no host effect" was granted anyway.
# Recomputed on the backward pass, the wrapper prints again.
# Outcome (stdout): 4 lines ('layer norm 2.6936', '3.2238', '4.1437', '5.5873') became
# 8 ("4 lines became 8; line 5: nothing became 'layer norm 5.5873'"); gradients equal.
# Hazard class: order of host effects (issue 27, class 6): `jax.debug.print` in a
# checkpointed body, hidden in a decorator.
"""Scan over residual layers under `jax.grad`; the layer is wrapped by a tracing
decorator that prints each layer's output norm with `jax.debug.print`. Checkpointed,
the backward pass would recompute the layer and print again."""

import functools

import jax
import jax.numpy as jnp


def traced(fn):
    @functools.wraps(fn)
    def wrapper(h, w):
        out, aux = fn(h, w)
        jax.debug.print("layer norm {n:.4f}", n=jnp.linalg.norm(out))
        return out, aux

    return wrapper


@traced
def block(h, w):
    return h + jnp.tanh(h @ w), None


def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.mean(h**2)


grad_step = jax.jit(jax.grad(loss))


def main():
    ws = jnp.stack([jnp.eye(3) * 0.1 * (i + 1) for i in range(4)])
    return grad_step(ws, jnp.ones((2, 3)))
