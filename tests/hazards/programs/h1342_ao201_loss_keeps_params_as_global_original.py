"""A loss function, called eagerly at an interval, keeps its argument as a global
(`original = params`) read after training. Trap for AO201's proof that a visible function
keeps none of its arguments: donating `params` deletes the buffers `original` holds."""

import jax
import jax.numpy as jnp

original = None


def loss_fun(params, x):
    global original
    original = params
    return jnp.mean((x @ params["w"] + params["b"]) ** 2)


@jax.jit
def train_step(params, x):
    grads = jax.grad(loss_fun)(params, x)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    params = {"w": jnp.ones((3, 2)) / 3.0, "b": jnp.zeros(2)}
    x = jnp.arange(12.0).reshape(4, 3) / 12.0
    losses = []
    for i in range(6):
        params = train_step(params, x)
        if i % 2 == 0:
            losses.append(float(loss_fun(params, x)))
    return losses, original["w"].sum()
