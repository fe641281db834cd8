"""optax + jax.jit: `for _ in range(5): params, opt_state, loss = step(...)`, then the
last `loss` returned. Trap for AO103 (whole loop): a scan must hand back the loss of the
last step, not the first or a stacked array."""

import jax
import jax.numpy as jnp
import optax

tx = optax.adam(0.1)


@jax.jit
def step(params, opt_state, x):
    loss, grads = jax.value_and_grad(lambda p: jnp.sum((p - x) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    params = jnp.zeros(3)
    opt_state = tx.init(params)
    x = jnp.array([1.0, 2.0, 3.0])
    for _ in range(5):
        params, opt_state, loss = step(params, opt_state, x)
    return loss, params
