"""Equinox module with a plain Python float field (`leak`) that its `__call__`
branches on; eqx.filter_jit would keep it static, `jax.jit` traces it."""

import equinox as eqx
import jax
import jax.numpy as jnp


class LeakyLayer(eqx.Module):
    w: jax.Array
    leak: float

    def __call__(self, x):
        h = x @ self.w
        if self.leak > 0.0:
            return jnp.where(h > 0, h, self.leak * h)
        return jnp.maximum(h, 0.0)


def forward(layer, x):
    return layer(x).sum()


def main():
    layer = LeakyLayer(jnp.array([[1.0, -1.0], [0.5, 2.0]]), 0.1)
    outs = []
    for i in range(5):
        outs.append(forward(layer, jnp.array([i - 2.0, 1.0])))
    return jnp.stack(outs)
