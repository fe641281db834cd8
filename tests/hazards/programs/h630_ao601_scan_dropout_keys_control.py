"""Control (for h628/h629): a scanned stack of layers with dropout, its keys split
before the scan and passed per layer. The layer is pure: recomputed on the backward
pass it draws the same mask from the same key, so checkpointing keeps the gradients."""

import jax
import jax.numpy as jnp


def layer(h, inputs):
    w, key = inputs
    h = h + jnp.tanh(h @ w)
    keep = jax.random.bernoulli(key, 0.8, h.shape)
    return jnp.where(keep, h / 0.8, 0.0), None


def loss(ws, x, key):
    keys = jax.random.split(key, ws.shape[0])
    h, _ = jax.lax.scan(layer, x, (ws, keys))
    return jnp.mean(h**2)


grad_step = jax.jit(jax.value_and_grad(loss))


def main():
    ws = jnp.stack([jnp.eye(4) * 0.3 - 0.02 * k for k in range(6)])
    x = jnp.linspace(-1.0, 1.0, 12).reshape(3, 4)
    value, grads = grad_step(ws, x, jax.random.key(7))
    print("loss", round(float(value), 6))
    return value, grads
