"""The global `model` (a linen layer) has an alias that the loop changes: `alias.use_bias`
flips every epoch, and the loss function reads `model.apply`. Trap for AO103's held
layers: linen layers are not frozen, so a jitted step would keep the layer's fields of
its first trace."""

import jax
import jax.numpy as jnp
from flax import linen as nn

xs = jnp.linspace(-1.0, 1.0, 16, dtype=jnp.float32).reshape(8, 2)
ys = jnp.sum(xs, axis=1, keepdims=True) + 0.5
model = nn.Dense(features=1)
alias = model


def loss_fn(params):
    pred = model.apply(params, xs)
    return jnp.mean((pred - ys) ** 2)


grad_fn = jax.value_and_grad(loss_fn)
params = model.init(jax.random.key(0), xs)
losses = []
for epoch in range(6):
    loss, grads = grad_fn(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.3 * g, params, grads)
    losses.append(loss)
    alias.use_bias = epoch % 2 == 1


def main():
    return params, jnp.stack(losses)
