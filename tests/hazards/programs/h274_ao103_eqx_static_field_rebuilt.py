"""Equinox model with a static field (`eqx.field(static=True)`) holding the number of
smoothing passes; the eager loop rebuilds the model with more passes at epoch 3
(`eqx.tree_at` cannot reach a static field, so a new model is made)."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Smoother(eqx.Module):
    w: jax.Array
    passes: int = eqx.field(static=True)

    def __call__(self, x):
        for _ in range(self.passes):
            x = 0.5 * (x + jnp.roll(x, 1))
        return x * self.w


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


def main():
    x = jnp.sin(jnp.arange(8.0))
    y = jnp.cos(jnp.arange(8.0))
    model = Smoother(jnp.ones(8), 1)
    for epoch in range(6):
        if epoch == 3:
            model = Smoother(model.w, 3)
        grads = eqx.filter_grad(loss_fn)(model, x, y)
        model = jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)
    return model.w
