"""optax + jax.jit: a training loop that keeps the best parameters seen so far
(`best = params` when the loss improves), a dict of arrays, returned after training.
Trap for AO201: donating `params` deletes the arrays `best` holds."""

import jax
import jax.numpy as jnp
import optax

opt = optax.sgd(0.5)


@jax.jit
def update(params, opt_state, x):
    def loss_fn(p):
        return jnp.mean((x @ p["w"] + p["b"] - 1.0) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    params = {"w": jnp.full((3,), 0.3), "b": jnp.zeros(())}
    opt_state = opt.init(params)
    x = jnp.arange(6.0).reshape(2, 3) / 4.0
    best, best_loss = params, float("inf")
    for _ in range(6):
        params, opt_state, loss = update(params, opt_state, x)
        if loss < best_loss:
            best, best_loss = params, float(loss)
    return best, best_loss
