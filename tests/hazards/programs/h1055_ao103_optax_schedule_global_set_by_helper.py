"""Eager optax loop (gradient, clip, update, apply in separate statements) whose
optimizer was built with a schedule callable reading the module global `LR_FACTOR`;
a plateau helper `on_epoch_end(epoch)` lowers that global from inside the loop. Trap for
AO103: the compiled step calls `tx.update`, whose schedule runs only at trace time, so
the learning-rate cuts never reach the compiled step."""

import jax
import jax.numpy as jnp
import optax

LR_FACTOR = 1.0
tx = optax.sgd(learning_rate=lambda count: 0.3 * LR_FACTOR)


def on_epoch_end(epoch):
    global LR_FACTOR
    if epoch % 3 == 2:
        LR_FACTOR = LR_FACTOR * 0.2


def loss_fn(params, x, y):
    return jnp.mean((jnp.tanh(x @ params["w"]) + params["b"] - y) ** 2)


def main():
    x = jnp.linspace(-1.0, 1.0, 16).reshape(8, 2)
    y = jnp.sin(2.0 * x[:, 0]) + 0.1
    params = {"w": jnp.array([0.5, -0.5]), "b": jnp.array(0.0)}
    opt_state = tx.init(params)
    for epoch in range(9):
        grads = jax.grad(loss_fn)(params, x, y)
        grads = jax.tree.map(lambda g: jnp.clip(g, -1.0, 1.0), grads)
        updates, opt_state = tx.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        on_epoch_end(epoch)
    return params
