"""An eager recurrent rollout of an equinox cell whose `__call__` prints each step's
hidden-state norm (with a plain `print` of a concrete value); each step decays the
cell's weights with `jax.tree.map` and calls the decayed cell. Trap for AO103: the body
looks like device work in several statements, but the print is in the method of the
object `jax.tree.map` returns; compiled, it would run once at trace time (and `float`
of a tracer raises)."""

import functools

import equinox as eqx
import jax
import jax.numpy as jnp


class Cell(eqx.Module):
    weight: jax.Array

    def __call__(self, h, x):
        h = jnp.tanh(h @ self.weight + x)
        print(f"h norm {float(jnp.linalg.norm(h)):.4f}")
        return h


def main():
    cell = Cell(jnp.eye(3) * 0.8)
    xs = jnp.linspace(-1.0, 1.0, 18).reshape(6, 3)
    h = jnp.zeros(3)
    for t in range(6):
        decayed = jax.tree.map(functools.partial(jnp.multiply, 0.95**t), cell)
        h = decayed(h, xs[t])
        h = h / (1.0 + jnp.abs(h).sum())
    return h
