"""A residual stack written with a small layer class of the file: the `lax.scan` body
builds the layer from its weight slice and calls it at once, `Block(w)(h)`; the
block's `__call__` logs its input norm with `jax.debug.print`. Trap for AO601: the
effect is in a method reached through a call of a constructor's result; a
checkpointed body prints every line again on the backward pass."""

import jax
import jax.numpy as jnp


class Block:
    def __init__(self, w):
        self.w = w

    def __call__(self, h):
        jax.debug.print("block input norm {n:.4f}", n=jnp.linalg.norm(h))
        return h + jnp.tanh(h @ self.w)


def loss(ws, x):
    def body(h, w):
        return Block(w)(h), None

    h, _ = jax.lax.scan(body, x, ws)
    return jnp.sum(h**2)


grad_fn = jax.jit(jax.grad(loss))


def main():
    ws = jnp.stack([jnp.eye(2) * 0.3 * (k + 1) for k in range(4)])
    grads = grad_fn(ws, jnp.array([0.5, -0.25]))
    jax.effects_barrier()
    return grads
