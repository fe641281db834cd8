"""optax + jax.jit: the Prodigy optimizer (`optax.contrib.prodigy`), whose state holds
the initial parameters (`params0`); the loop keeps the initial params for a drift
report, so only the optimizer state could be donated. Trap for AO201: donating
`opt_state` alone deletes the initial params the report reads."""

import jax
import jax.numpy as jnp
import optax

tx = optax.contrib.prodigy(learning_rate=1.0)


@jax.jit
def train_step(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((p["w"] - x) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = {"w": jnp.array([0.2, 0.4, 0.6])}
    initial = params
    opt_state = tx.init(params)
    x = jnp.array([1.0, 0.0, -1.0])
    for _ in range(3):
        params, opt_state = train_step(params, opt_state, x)
    return jnp.sum((params["w"] - initial["w"]) ** 2)
