"""`optax.inject_hyperparams(optax.adam)(learning_rate=lr_schedule)` with a schedule
function that reads `HPARAMS["lr"]`, a module-level dict the loop updates in place when
validation stalls. The schedule runs inside every `tx.update`. Trap for AO101: jitting
the step bakes the first `HPARAMS["lr"]` into the compiled update."""

import jax
import jax.numpy as jnp
import optax

HPARAMS = {"lr": 0.1}


def lr_schedule(count):
    return HPARAMS["lr"] / (1.0 + 0.1 * count)


tx = optax.inject_hyperparams(optax.adam)(learning_rate=lr_schedule)


def train_step(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0], [0.5, 0.5, 0.5]])
    y = jnp.array([1.0, 2.0, 3.0, 1.5])
    params = jnp.zeros(3)
    opt_state = tx.init(params)
    for i in range(12):
        params, opt_state = train_step(params, opt_state, x, y)
        if i == 4:
            HPARAMS.update(lr=0.01)
    return params, opt_state.hyperparams["learning_rate"]
