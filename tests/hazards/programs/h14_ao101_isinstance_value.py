"""Gradient clipping that clips only when the threshold is a float (an integer
threshold means "off" in this code base). Trap for AO101: under jit the threshold is a
tracer, `isinstance(..., float)` is False and clipping silently stops."""

import jax
import jax.numpy as jnp


def clip_grads(grads, max_norm):
    if isinstance(max_norm, float):
        norm = jnp.sqrt(sum(jnp.sum(g**2) for g in jax.tree.leaves(grads)))
        scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
        return jax.tree.map(lambda g: g * scale, grads)
    return grads


def loss(p):
    return jnp.sum((p["w"] - 10.0) ** 2) + jnp.sum(p["b"] ** 2)


def main():
    params = {"w": jnp.zeros(3), "b": jnp.ones(2)}
    for _ in range(10):
        grads = clip_grads(jax.grad(loss)(params), 1.0)
        params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params
