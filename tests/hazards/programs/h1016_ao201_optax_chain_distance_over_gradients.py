"""`optax.chain(optax.clip_by_global_norm(1.0), optax.scale_by_distance_over_gradients())`,
the top-level name of DoG's scaling: its state keeps the initial parameters, so
`tx.init(params)` holds the parameter arrays themselves. Trap for AO201: donating
`params` and `opt_state` together donates those buffers twice."""

import jax
import jax.numpy as jnp
import optax

tx = optax.chain(
    optax.clip_by_global_norm(1.0),
    optax.scale_by_distance_over_gradients(),
    optax.scale(-1.0),
)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.eye(3) * 2.0
    y = jnp.array([1.0, -1.0, 0.5])
    params = jnp.array([0.5, 0.5, 0.5])
    opt_state = tx.init(params)
    for _ in range(10):
        params, opt_state = train_step(params, opt_state, x, y)
    return params
