"""A deep MLP whose block takes a Python `train` flag (dropout on or off), applied in a
Python loop of 6 layers under `jax.value_and_grad`. Trap for AO601: `jax.checkpoint`
traces every argument, so `if train:` inside the checkpointed block would raise on a
traced boolean."""

import jax
import jax.numpy as jnp


def block(h, w, key, train):
    h = jax.nn.gelu(h @ w)
    if train:
        keep = jax.random.bernoulli(key, 0.9, h.shape)
        h = jnp.where(keep, h / 0.9, 0.0)
    return h


def loss(ws, x, key, train):
    h = x
    for i in range(6):
        h = block(h, ws[i], jax.random.fold_in(key, i), train)
    return jnp.mean((h - 0.5) ** 2)


train_grad = jax.jit(jax.value_and_grad(loss), static_argnums=3)


def main():
    ws = jnp.stack([jnp.eye(4) + 0.05 * k for k in range(6)])
    x = jnp.linspace(-1.0, 1.0, 8).reshape(2, 4)
    value, grads = train_grad(ws, x, jax.random.key(0), True)
    eval_value = loss(ws, x, jax.random.key(0), False)
    print("train", round(float(value), 6), "eval", round(float(eval_value), 6))
    return grads
