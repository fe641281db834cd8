"""haiku + optax: after each jitted update the loop snapshots the parameters leaf by
leaf with `jax.tree.map(snapshots.append, params)`, a list's bound `append` mapped over
the tree (its result, a tree of `None`, thrown away), for a weight-trajectory plot.
Trap for AO201 (`donate_argnames`): donating `params` at the next step deletes the
leaves the snapshot list holds."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(1)(x)


NET = hk.without_apply_rng(hk.transform(forward))
OPT = optax.adam(0.05)


@jax.jit
def update(params, opt_state, x, y):
    def loss_fn(p):
        return jnp.mean((NET.apply(p, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = OPT.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    x = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([[1.0], [-1.0], [0.0]])
    params = NET.init(jax.random.PRNGKey(0), x)
    opt_state = OPT.init(params)
    snapshots = []
    losses = []
    for _ in range(4):
        params, opt_state, loss = update(params, opt_state, x, y)
        jax.tree.map(snapshots.append, params)
        losses.append(float(loss))
    return losses, snapshots
