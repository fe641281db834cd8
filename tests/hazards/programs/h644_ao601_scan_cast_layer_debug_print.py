"""Mixed-precision training of a scanned layer stack: the scan body casts each layer's
parameters to bfloat16 with `jax.tree.map` and calls the cast layer, an equinox module
whose `__call__` logs its output norm with `jax.debug.print`. Trap for AO601: the effect
is in the method of the object `jax.tree.map` returns; a checkpointed body prints
every line again on the backward pass."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Layer(eqx.Module):
    weight: jax.Array

    def __call__(self, h):
        out = h + jnp.tanh(h @ self.weight)
        jax.debug.print("layer norm {n:.3f}", n=jnp.linalg.norm(out.astype(jnp.float32)))
        return out


def loss(stack, x):
    def body(h, layer):
        half = jax.tree.map(lambda p: p.astype(jnp.bfloat16), layer)
        return half(h), None

    h, _ = jax.lax.scan(body, x.astype(jnp.bfloat16), stack)
    return jnp.mean(h.astype(jnp.float32) ** 2)


grad_fn = jax.jit(jax.grad(loss))


def main():
    stack = Layer(jnp.stack([jnp.eye(3) * 0.3 * (k + 1) for k in range(4)]))
    grads = grad_fn(stack, jnp.linspace(0.0, 1.0, 3))
    jax.effects_barrier()
    return grads.weight
