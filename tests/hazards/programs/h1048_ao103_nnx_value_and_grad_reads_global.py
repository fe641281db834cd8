"""flax nnx + `nnx.Optimizer`, eager loop: `nnx.value_and_grad(loss_fn)(model)` where
`loss_fn` adds an L1 penalty weighted by the module global `L1`, ramped up by the loop.
Trap for AO103 (nnx step) / AO101: compiled with `nnx.jit`, `loss_fn` is traced once
and `L1` frozen."""

import jax.numpy as jnp
import optax
from flax import nnx

L1 = 0.0


def loss_fn(model, x, y):
    fit = jnp.mean((model(x) - y) ** 2)
    return fit + L1 * jnp.sum(jnp.abs(model.kernel.value))


def main():
    global L1
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    opt = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3)
    y = x[:, :1] - 2.0 * x[:, 2:]
    values = []
    for i in range(8):  # noqa: B007
        value, grads = nnx.value_and_grad(loss_fn)(model, x, y)
        opt.update(model, grads)
        values.append(value)
        L1 = L1 + 0.05
    return jnp.stack(values), model.kernel.value
