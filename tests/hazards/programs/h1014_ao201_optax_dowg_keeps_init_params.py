"""optax `contrib.dowg` (distance over weighted gradients) keeps the initial parameters
in its state (`init_params`) to measure the distance travelled: `tx.init(params)` puts
the parameter arrays themselves into the optimizer state. Trap for AO201: donating both
`params` and `opt_state` donates those buffers twice."""

import jax
import jax.numpy as jnp
import optax

tx = optax.contrib.dowg()


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] + p["b"] - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    y = x @ jnp.array([1.0, 2.0]) - 0.5
    params = {"w": jnp.array([0.1, -0.1]), "b": jnp.array(0.0)}
    opt_state = tx.init(params)
    for _ in range(10):
        params, opt_state = train_step(params, opt_state, x, y)
    return params
