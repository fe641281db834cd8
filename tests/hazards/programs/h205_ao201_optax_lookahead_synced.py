"""Lookahead optimizer from optax: `optax.LookaheadParams.init_synced(params)` is
documented to start the fast and the slow weights equal, and does it with the same
arrays. The jitted step takes and returns the LookaheadParams."""

import jax
import jax.numpy as jnp
import optax

optimizer = optax.lookahead(optax.sgd(0.1), sync_period=3, slow_step_size=0.5)


def loss_fn(w):
    return jnp.sum((w - jnp.array([1.0, -2.0, 0.5])) ** 2)


@jax.jit
def step(params, opt_state):
    grads = jax.grad(loss_fn)(params.fast)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = optax.LookaheadParams.init_synced(jnp.zeros(3))
    opt_state = optimizer.init(params)
    for _ in range(12):
        params, opt_state = step(params, opt_state)
    return params.fast, params.slow
