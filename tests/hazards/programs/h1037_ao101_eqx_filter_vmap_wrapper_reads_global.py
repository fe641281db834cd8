"""equinox utilities on plain arrays: a per-example prediction is batched once at
module level, `batched = eqx.filter_vmap(predict, in_axes=(None, 0))`; `predict` adds
the module global `OFFSET`, a calibration shift the loop moves each epoch. The step
takes `eqx.filter_grad` of a lambda that calls `batched`. Trap for AO101: jitting
`step` traces `predict` once through the wrapper and freezes `OFFSET`."""

import equinox as eqx
import jax
import jax.numpy as jnp

OFFSET = 0.0


def predict(params, x):
    return jnp.tanh(x @ params["w"] + params["b"] + OFFSET)


batched = eqx.filter_vmap(predict, in_axes=(None, 0))


def step(params, xs, ys):
    grads = eqx.filter_grad(lambda p: jnp.mean((batched(p, xs) - ys) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.3 * g, params, grads)


def main():
    global OFFSET
    params = {"w": jnp.array([0.1, -0.1]), "b": jnp.array(0.0)}
    xs = jnp.array([[1.0, 2.0], [0.5, -1.0], [1.0, 1.0], [-0.5, 0.5]])
    ys = jnp.array([0.5, 0.0, 0.2, -0.3])
    for epoch in range(6):  # noqa: B007
        params = step(params, xs, ys)
        OFFSET = OFFSET - 0.1
    return params
