"""`optax.lookahead` with `optax.LookaheadParams.init_synced(params)`: fast and slow
params start as the same arrays.
"""

import jax
import jax.numpy as jnp
import optax

opt = optax.lookahead(optax.sgd(0.1), sync_period=3, slow_step_size=0.5)


@jax.jit
def step(lp, opt_state, x, y):
    def loss_fn(p):
        return jnp.mean((x @ p - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(lp.fast)
    updates, opt_state = opt.update(g, opt_state, lp)
    return optax.apply_updates(lp, updates), opt_state, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(5), (20, 3))
    y = x @ jnp.array([1.0, 0.0, -1.0])
    params = jnp.zeros(3) + 0.2
    lp = optax.LookaheadParams.init_synced(params)
    opt_state = opt.init(lp)
    for _ in range(7):
        lp, opt_state, loss = step(lp, opt_state, x, y)
    return loss, lp.slow
