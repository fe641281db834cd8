"""A plain optax loop with `optax.contrib.prodigy`, whose `init` keeps the initial
parameters in its state (the distance estimate starts from them): the very arrays, not
copies. Trap for AO201: donating `params` and `opt_state` in one call donates those
buffers twice, which XLA refuses."""

import jax
import jax.numpy as jnp
import optax

OPT = optax.contrib.prodigy(learning_rate=1.0)


@jax.jit
def train_step(params, opt_state, x, y):
    def loss_fn(p):
        return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = OPT.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    key = jax.random.PRNGKey(0)
    params = {"w": jax.random.normal(key, (3, 1)), "b": jnp.zeros(1)}
    opt_state = OPT.init(params)
    x = jnp.arange(15.0).reshape(5, 3) / 15.0
    y = x @ jnp.array([[1.0], [-2.0], [0.5]])
    for _ in range(6):
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return params, loss
