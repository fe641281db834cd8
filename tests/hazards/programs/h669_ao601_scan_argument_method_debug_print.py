"""Stacked equinox blocks scanned over: the `lax.scan` body takes one block as its `xs`
argument and calls a method of it, `layer.forward(h)`, whose code logs with
`jax.debug.print`. Trap for AO601: the effect sits in a method of an argument whose
kind autoopt does not know; a checkpointed body prints every line again on the
backward pass."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Block(eqx.Module):
    w: jax.Array

    def forward(self, h):
        jax.debug.print("block input norm {n:.4f}", n=jnp.linalg.norm(h))
        return h + jnp.tanh(h @ self.w)


def body(h, layer):
    return layer.forward(h), None


def loss(layers, x):
    h, _ = jax.lax.scan(body, x, layers)
    return jnp.sum(h**2)


grad_fn = jax.jit(jax.grad(loss))


def main():
    blocks = [Block(jnp.eye(2) * 0.3 * (k + 1)) for k in range(4)]
    stacked = jax.tree.map(lambda *leaves: jnp.stack(leaves), *blocks)
    grads = grad_fn(stacked, jnp.array([0.5, -0.25]))
    jax.effects_barrier()
    return grads.w
