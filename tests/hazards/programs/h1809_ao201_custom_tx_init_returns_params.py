"""optax: a user-written `GradientTransformation` (a Polyak average kept in the
optimizer state) whose `init` returns the params themselves, chained after
`optax.sgd`. Trap for AO201: the state holds the params' buffers, so donating `params`
and `opt_state` together donates one buffer twice."""

import jax
import jax.numpy as jnp
import optax


def polyak(decay):
    def init_fn(params):
        return params

    def update_fn(updates, state, params=None):
        new_state = jax.tree.map(
            lambda s, p, u: decay * s + (1 - decay) * (p + u), state, params, updates
        )
        return updates, new_state

    return optax.GradientTransformation(init_fn, update_fn)


tx = optax.chain(optax.sgd(0.1), polyak(0.5))


@jax.jit
def train_step(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((p - x) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = jnp.array([0.0, 1.0, 2.0])
    opt_state = tx.init(params)
    x = jnp.array([1.0, 1.0, 1.0])
    for _ in range(3):
        params, opt_state = train_step(params, opt_state, x)
    return params, opt_state[1]
