"""The equinox scan-over-layers idiom: a stacked `Layer` module is the scan's `xs`,
and the body calls the layer slice it is given, `layer(h)`; the layer's `__call__` logs
its output norm with `jax.debug.print`. Trap for AO601: the effect is in the method
of a body argument; a checkpointed body prints every line again on the backward
pass."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Layer(eqx.Module):
    weight: jax.Array

    def __call__(self, h):
        out = h + jnp.tanh(h @ self.weight)
        jax.debug.print("layer norm {n:.4f}", n=jnp.linalg.norm(out))
        return out


def loss(stack, x):
    def body(h, layer):
        return layer(h), None

    h, _ = jax.lax.scan(body, x, stack)
    return jnp.mean(h**2)


grad_fn = jax.jit(jax.grad(loss))


def main():
    stack = Layer(jnp.stack([jnp.eye(3) * 0.2 * (k + 1) for k in range(4)]))
    grads = grad_fn(stack, jnp.linspace(0.0, 1.0, 3))
    jax.effects_barrier()
    return grads.weight
