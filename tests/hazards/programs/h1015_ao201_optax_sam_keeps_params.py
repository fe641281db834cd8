"""Sharpness-aware minimisation with `optax.contrib.sam(outer, inner)`: its state keeps
a copy of the parameters for the ascent step, and `init` stores the given parameter
arrays themselves. Trap for AO201: donating both `params` and `opt_state` donates each
parameter buffer twice."""

import jax
import jax.numpy as jnp
import optax

tx = optax.contrib.sam(optax.sgd(0.1), optax.sgd(0.05), sync_period=2)


def loss(p, x, y):
    return jnp.mean((jnp.tanh(x @ p["w"]) - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    grads = jax.grad(loss)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.array([[0.2], [-0.1], [0.4], [0.0]])
    params = {"w": jnp.full((3, 1), 0.3)}
    opt_state = tx.init(params)
    for _ in range(8):
        params, opt_state = train_step(params, opt_state, x, y)
    return params, loss(params, x, y)
