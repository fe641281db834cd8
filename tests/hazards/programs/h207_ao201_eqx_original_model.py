"""Equinox regression with `eqx.filter_jit`; the untrained model is kept as
`original = model` to compare predictions before and after training."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Affine(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return x @ self.w + self.b


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@eqx.filter_jit
def train_step(model, x, y):
    grads = eqx.filter_grad(loss_fn)(model, x, y)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    x = jnp.linspace(-1.0, 1.0, 20).reshape(10, 2)
    y = x @ jnp.array([2.0, -1.0]) + 0.5
    model = Affine(jnp.zeros(2), jnp.zeros(()))
    original = model
    for _ in range(20):
        model = train_step(model, x, y)
    return original(x), model(x)
