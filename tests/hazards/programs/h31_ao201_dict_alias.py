"""Training with a "best checkpoint" dict updated in place (`best.update(...)`), as
many training scripts do. Trap for AO201: the dict holds the parameters that the
next step donates; the returned checkpoint is deleted."""

import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(params, x, y):
    pred = jnp.tanh(x @ params["w1"]) @ params["w2"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def update(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.2 * g, params, grads), loss


def main():
    rng = np.random.default_rng(14)
    x = jnp.asarray(rng.normal(size=(32, 3)), jnp.float32)
    y = jnp.sum(x**2, axis=1, keepdims=True)
    params = {
        "w1": jnp.asarray(rng.normal(size=(3, 8)) * 0.5, jnp.float32),
        "w2": jnp.asarray(rng.normal(size=(8, 1)) * 0.5, jnp.float32),
    }
    best = {"loss": float("inf"), "params": None, "epoch": -1}
    for epoch in range(20):
        params, loss = update(params, x, y)
        if float(loss) < best["loss"]:
            best.update(loss=float(loss), params=params, epoch=epoch)
    return best
