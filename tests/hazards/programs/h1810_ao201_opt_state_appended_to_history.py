"""optax + jax.jit: the loop keeps every optimizer state in a list (to plot Adam's
moments later). Trap for AO201: donating `opt_state` deletes the moments the list
holds."""

import jax
import jax.numpy as jnp
import optax

tx = optax.adam(0.1)


@jax.jit
def train_step(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((p - x) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = jnp.array([0.5, -0.5])
    opt_state = tx.init(params)
    x = jnp.array([1.0, 2.0])
    states = []
    for _ in range(3):
        params, opt_state = train_step(params, opt_state, x)
        states.append(opt_state)
    return params, [s[0].mu for s in states]
