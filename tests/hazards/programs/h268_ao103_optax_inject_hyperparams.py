"""optax with `inject_hyperparams`: the learning rate lives in the optimizer state,
and the eager loop lowers it by writing into `opt_state.hyperparams` (a dict, changed
in place) every 5 steps."""

import jax
import jax.numpy as jnp
import optax

optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.2)


def loss_fn(w):
    return jnp.sum((w - jnp.array([2.0, -1.0])) ** 2)


def main():
    w = jnp.zeros(2)
    opt_state = optimizer.init(w)
    for t in range(15):
        grads = jax.grad(loss_fn)(w)
        updates, opt_state = optimizer.update(grads, opt_state, w)
        w = optax.apply_updates(w, updates)
        if t % 5 == 4:
            opt_state.hyperparams["learning_rate"] = opt_state.hyperparams["learning_rate"] * 0.5
    return w, opt_state.hyperparams["learning_rate"]
