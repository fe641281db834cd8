"""A per-example model is batched once at module level, `batched = jax.vmap(predict,
in_axes=(None, 0))`; `predict` adds the module global `BIAS_SHIFT`, which the loop
moves each epoch (a calibration sweep). Trap for AO101: jitting `sgd_step` traces
`predict` once through the vmap wrapper and freezes `BIAS_SHIFT`."""

import jax
import jax.numpy as jnp

BIAS_SHIFT = 0.0


def predict(w, x):
    return jnp.tanh(x @ w + BIAS_SHIFT)


batched = jax.vmap(predict, in_axes=(None, 0))


def sgd_step(w, xs, ys):
    return w - 0.3 * jax.grad(lambda v: jnp.mean((batched(v, xs) - ys) ** 2))(w)


def main():
    global BIAS_SHIFT
    xs = jnp.array([[1.0, 2.0], [0.5, -1.0], [1.0, 1.0], [-0.5, 0.3]])
    ys = jnp.array([0.5, 0.0, 0.2, -0.1])
    w = jnp.zeros(2)
    for epoch in range(8):  # noqa: B007
        w = sgd_step(w, xs, ys)
        BIAS_SHIFT = BIAS_SHIFT - 0.05
    return w
