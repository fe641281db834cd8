"""An equinox transformer-style stack: one block module with weights stacked by
`eqx.filter_vmap`, scanned with `lax.scan` and `eqx.combine`; the block's `__call__`
prints its output norm with `jax.debug.print`. Trap for AO601: the effect hides in a
method of a module class; a checkpointed scan body prints every line again on the
backward pass."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Block(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 4, key=key)

    def __call__(self, h):
        h = h + jnp.tanh(self.linear(h))
        jax.debug.print("block norm {n:.4f}", n=jnp.linalg.norm(h))
        return h


def make_stack(key, depth):
    return eqx.filter_vmap(Block)(jax.random.split(key, depth))


def loss(params, static, x):
    def body(h, p):
        return eqx.combine(p, static)(h), None

    h, _ = jax.lax.scan(body, x, params)
    return jnp.sum(h**2)


grad_step = jax.jit(jax.value_and_grad(loss), static_argnums=1)


def main():
    stack = make_stack(jax.random.key(5), 4)
    params, static = eqx.partition(stack, eqx.is_array)
    value, grads = grad_step(params, static, jnp.linspace(0.0, 1.0, 4))
    jax.effects_barrier()
    print("loss", round(float(value), 5))
    return value, grads.linear.weight
