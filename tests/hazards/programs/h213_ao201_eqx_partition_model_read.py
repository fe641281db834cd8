"""Equinox model trained through its array leaves: `params, static =
eqx.partition(model, eqx.is_array)` (the same arrays as the model's), a jitted step
on `params`, and the untrained `model` evaluated at the end."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Line(eqx.Module):
    a: jax.Array
    b: jax.Array

    def __call__(self, x):
        return self.a * x + self.b


@jax.jit
def step(params, x, y):
    def loss(p):
        return jnp.mean((p.a * x + p.b - y) ** 2)

    g = jax.grad(loss)(params)
    return jax.tree.map(lambda p, d: p - 0.1 * d, params, g)


def main():
    model = Line(jnp.array(0.5), jnp.array(0.0))
    params, static = eqx.partition(model, eqx.is_array)
    x = jnp.linspace(0.0, 1.0, 8)
    y = 2.0 * x + 1.0
    for _ in range(10):
        params = step(params, x, y)
    return eqx.combine(params, static)(x), model(x)
