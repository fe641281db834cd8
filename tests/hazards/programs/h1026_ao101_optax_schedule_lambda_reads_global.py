"""An optax optimizer whose learning rate is a schedule callable,
`optax.sgd(learning_rate=lambda count: BASE_LR * 0.9 ** count)`, reading the module
global `BASE_LR` that the loop cuts when the loss plateaus. The eager step calls
`tx.update`, which calls the schedule each time. Trap for AO101/AO103: jitted, the
schedule runs once at trace time and `BASE_LR` is frozen."""

import jax
import jax.numpy as jnp
import optax

BASE_LR = 0.2
tx = optax.sgd(learning_rate=lambda count: BASE_LR * 0.9**count)


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train_step(w, opt_state, x, y):
    g = jax.grad(loss_fn)(w, x, y)
    updates, opt_state = tx.update(g, opt_state, w)
    return optax.apply_updates(w, updates), opt_state


def main():
    global BASE_LR
    x = jnp.array([[1.0, 0.5], [0.2, 1.0], [1.0, 1.0]])
    y = jnp.array([1.0, 2.0, 0.0])
    w = jnp.zeros(2)
    opt_state = tx.init(w)
    for step in range(12):
        w, opt_state = train_step(w, opt_state, x, y)
        if step == 5:
            BASE_LR = BASE_LR * 0.1
    return w
