"""For nicer profiles the attention-free mixer layer is wrapped at module level,
`mixer = jax.named_call(_mixer, name="mixer")`; `_mixer` multiplies by the module
global `MIX`, a mixing coefficient the loop decays. Trap for AO101: jitting `update`
traces `_mixer` once through the wrapper and freezes `MIX`."""

import jax
import jax.numpy as jnp

MIX = 1.0


def _mixer(x, w):
    return x + MIX * jnp.tanh(x @ w)


mixer = jax.named_call(_mixer, name="mixer")


def update(w, x, y):
    return w - 0.1 * jax.grad(lambda v: jnp.mean((mixer(x, v) - y) ** 2))(w)


def main():
    global MIX
    x = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    y = jnp.array([[0.1, 0.2], [0.0, -0.1], [0.3, 0.3], [0.2, -0.2]])
    w = jnp.eye(2) * 0.5
    for i in range(8):  # noqa: B007
        w = update(w, x, y)
        MIX = MIX * 0.7
    return w
