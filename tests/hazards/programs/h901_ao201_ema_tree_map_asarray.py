"""optax training with an EMA of the params initialised by
`jax.tree.map(jnp.asarray, params)`: `jnp.asarray` of a JAX array returns the array
itself, so the EMA's leaves are the params' buffers. Trap for AO201: donating `params`
to the step deletes the EMA's leaves, read by the EMA update after the first step."""

import jax
import jax.numpy as jnp
import optax

opt = optax.adam(0.05)


@jax.jit
def update(params, opt_state, batch):
    def loss_fn(p):
        return jnp.mean((batch @ p["w"] + p["b"] - 1.0) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    params = {"w": jnp.full((3,), 0.1), "b": jnp.zeros(())}
    opt_state = opt.init(params)
    ema_params = jax.tree.map(jnp.asarray, params)
    batches = [jnp.ones((2, 3)) * (k + 1) / 4 for k in range(5)]
    for batch in batches:
        params, opt_state, loss = update(params, opt_state, batch)
        ema_params = jax.tree.map(lambda e, p: 0.9 * e + 0.1 * p, ema_params, params)
    print("last loss", round(float(loss), 5))
    return params, ema_params
