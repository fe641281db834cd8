"""Early-stopping bookkeeping: when the validation loss improves, the parameters are
"moved to the first device for safe keeping", `best = jax.device_put(params,
jax.devices()[0])`. On a one-device machine that is a new Array object over the same
buffer. Trap for AO201: donating `params` at the next step deletes `best`."""

import jax
import jax.numpy as jnp


@jax.jit
def update(params, x, y):
    def loss(p):
        return jnp.mean((jnp.tanh(x @ p["w1"]) @ p["w2"] - y) ** 2)

    g = jax.grad(loss)(params)
    return jax.tree.map(lambda p, d: p - 0.3 * d, params, g)


@jax.jit
def val_loss(params, x, y):
    return jnp.mean((jnp.tanh(x @ params["w1"]) @ params["w2"] - y) ** 2)


def main():
    x = jnp.linspace(-1.0, 1.0, 20).reshape(10, 2)
    y = jnp.sin(x[:, :1] * 2.0)
    xv, yv = x[::2] + 0.05, y[::2]
    params = {"w1": jnp.full((2, 4), 0.3) * jnp.arange(1.0, 5.0), "w2": jnp.full((4, 1), -0.2)}
    best, best_loss = None, float("inf")
    for epoch in range(10):  # noqa: B007
        params = update(params, x, y)
        v = float(val_loss(params, xv, yv))
        if v < best_loss:
            best_loss = v
            best = jax.device_put(params, jax.devices()[0])
    return best, best_loss
