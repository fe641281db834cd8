"""optax + jax.jit: `init = {**params}` is meant as a copy of the initial params for a
weight-decay-to-init report, but it is a shallow copy that holds the same arrays; the
jitted step replaces `params`. Trap for AO201: donating `params` deletes the arrays
`init` holds."""

import jax
import jax.numpy as jnp
import optax

tx = optax.adamw(0.05, weight_decay=0.1)


@jax.jit
def train_step(params, opt_state, x, y):
    def loss_fn(p):
        return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    grads = jax.grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = {"w": jnp.array([1.0, -1.0]), "b": jnp.array(0.0)}
    init = {**params}
    opt_state = tx.init(params)
    x = jnp.array([[1.0, 2.0], [2.0, 1.0]])
    y = jnp.array([0.5, 1.5])
    for _ in range(3):
        params, opt_state = train_step(params, opt_state, x, y)
    return {k: params[k] - init[k] for k in params}
