"""Two-phase training where the optax optimizer is passed to the step as an argument
(SGD warm-up, then Adam); the optimizer state is re-initialised at the switch."""

import jax
import jax.numpy as jnp
import optax


def loss_fn(w):
    return jnp.sum((w - jnp.array([1.0, 2.0, 3.0])) ** 2)


def train_step(w, opt_state, tx):
    grads = jax.grad(loss_fn)(w)
    updates, opt_state = tx.update(grads, opt_state, w)
    return optax.apply_updates(w, updates), opt_state


def main():
    w = jnp.zeros(3)
    warmup, main_tx = optax.sgd(0.05), optax.adam(0.1)
    tx = warmup
    opt_state = tx.init(w)
    for t in range(12):
        if t == 4:
            tx = main_tx
            opt_state = tx.init(w)
        w, opt_state = train_step(w, opt_state, tx)
    return w
