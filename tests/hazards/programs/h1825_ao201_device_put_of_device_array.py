"""optax + jax.jit: `params = jax.device_put(init_params)` moves the initial params "to
the device", but they are already there, so `device_put` returns the very arrays; the
loop then reports the change from `init_params`. Trap for AO201: donating `params`
deletes `init_params`."""

import jax
import jax.numpy as jnp
import optax

tx = optax.sgd(0.1, momentum=0.5)


@jax.jit
def update(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum(jnp.tanh(x @ p["w"]) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    init_params = {"w": jnp.array([[0.5, -0.5], [0.25, 0.75]])}
    params = jax.device_put(init_params)
    opt_state = tx.init(params)
    x = jnp.array([[1.0, 2.0]])
    for _ in range(3):
        params, opt_state = update(params, opt_state, x)
    return jax.tree.map(lambda a, b: a - b, params, init_params)
