"""A residual stack whose block is rematerialised with a module-level wrapper,
`block = jax.checkpoint(_block)`; `_block` scales its output by the module global
`RES_SCALE`, which the loop anneals (a "rezero"-style warm-up). Trap for AO101: jitting
`train_step` traces `_block` once, freezing `RES_SCALE`."""

import jax
import jax.numpy as jnp

RES_SCALE = 0.1


def _block(h, w):
    return h + RES_SCALE * jnp.tanh(h @ w)


block = jax.checkpoint(_block)


def train_step(ws, x, y):
    def loss(ws):
        h = x
        for w in ws:
            h = block(h, w)
        return jnp.mean((h - y) ** 2)

    grads = jax.grad(loss)(ws)
    return [w - 0.2 * g for w, g in zip(ws, grads)]  # noqa: B905


def main():
    global RES_SCALE
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.roll(x, 1, axis=1)
    ws = [jnp.eye(3) * 0.3, jnp.eye(3) * -0.2, jnp.ones((3, 3)) * 0.1]
    for i in range(8):  # noqa: B007
        ws = train_step(ws, x, y)
        RES_SCALE = min(1.0, RES_SCALE + 0.15)
    return ws
