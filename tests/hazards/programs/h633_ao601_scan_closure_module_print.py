"""A recurrent cell written as an equinox module whose `__call__` prints the hidden
state's norm with `jax.debug.print`; the sequence is run by `lax.scan` over inputs,
the body calling the cell it closes over, under `jax.grad`. Trap for AO601: the
effect is in a module method reached through `cell(h, x)`; a checkpointed body prints
every line again on the backward pass."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Cell(eqx.Module):
    weight: jax.Array

    def __call__(self, h, x):
        h = jnp.tanh(h @ self.weight + x)
        jax.debug.print("h norm {n:.4f}", n=jnp.linalg.norm(h))
        return h


def loss(cell, xs):
    def body(h, x):
        return cell(h, x), None

    h, _ = jax.lax.scan(body, jnp.zeros(3), xs)
    return jnp.sum(h**2)


grad_fn = jax.jit(jax.grad(loss))


def main():
    cell = Cell(jnp.eye(3) * 0.5)
    xs = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    grads = grad_fn(cell, xs)
    jax.effects_barrier()
    return grads.weight
