"""Freeze-then-unfreeze fine-tuning with `optax.masked(optax.sgd(0.1), mask_fn)`: the
mask function reads the module global `TRAIN_BACKBONE`, switched on after a warm-up
that trains only the head. optax calls the mask function in every `update`. Trap for
AO101/AO103: jitted, the mask is computed once at trace time and the backbone stays
frozen."""

import jax
import jax.numpy as jnp
import optax

TRAIN_BACKBONE = False


def mask_fn(params):
    return {"backbone": TRAIN_BACKBONE, "head": True}


tx = optax.chain(
    optax.masked(optax.sgd(0.1), mask_fn),
    optax.masked(optax.set_to_zero(), lambda p: {"backbone": not TRAIN_BACKBONE, "head": False}),
)


def loss(params, x, y):
    return jnp.mean((jnp.tanh(x @ params["backbone"]) @ params["head"] - y) ** 2)


def update(params, opt_state, x, y):
    grads = jax.grad(loss)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    global TRAIN_BACKBONE
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.array([0.5, -0.5, 0.2, 0.1])
    params = {"backbone": jnp.eye(3) * 0.5, "head": jnp.ones(3) * 0.1}
    opt_state = tx.init(params)
    for epoch in range(8):
        if epoch == 3:
            TRAIN_BACKBONE = True
        params, opt_state = update(params, opt_state, x, y)
    return params
