"""Mixed-precision habit: the starting parameters are kept as
`init_params = optax.tree_utils.tree_cast(params, jnp.float32)`, believed to be a float32
copy. The parameters already are float32, so `tree_cast` returns the very same arrays.
Trap for AO201: donating `params` in the optax step deletes `init_params`, read after
training for the drift."""

import jax
import jax.numpy as jnp
import optax

tx = optax.adam(0.05)


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = x @ jnp.array([0.5, -1.0, 2.0]) + 0.3
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    init_params = optax.tree_utils.tree_cast(params, jnp.float32)
    opt_state = tx.init(params)
    for _ in range(15):
        params, opt_state = train_step(params, opt_state, x, y)
    drift = jax.tree.map(lambda a, b: jnp.sum((a - b) ** 2), params, init_params)
    return params, drift
