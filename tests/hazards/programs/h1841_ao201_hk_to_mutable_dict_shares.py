"""haiku: `start = hk.data_structures.to_mutable_dict(params)` keeps the initial params
in a plain dict (the same arrays) for a report; a jitted optax step replaces `params`.
Trap for AO201: donating `params` deletes the arrays `start` holds."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(2)(x)


net = hk.without_apply_rng(hk.transform(forward))
tx = optax.sgd(0.1)


@jax.jit
def update(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.array([[1.0, 0.0, 1.0]])
    y = jnp.array([[1.0, 2.0]])
    params = net.init(jax.random.PRNGKey(0), x)
    start = hk.data_structures.to_mutable_dict(params)
    opt_state = tx.init(params)
    for _ in range(3):
        params, opt_state = update(params, opt_state, x, y)
    return jax.tree.map(lambda a, b: jnp.sum(a - b), dict(params), start)
