"""optax + jax.jit: `leaves0 = jax.tree.leaves(params)` keeps the initial leaves (the same
arrays) to compute per-leaf drift after training; the jitted step replaces `params`.
Trap for AO201: donating `params` deletes the arrays the list holds."""

import jax
import jax.numpy as jnp
import optax

tx = optax.rmsprop(0.01)


@jax.jit
def step(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum(jnp.sin(p["a"] * x) + p["c"] ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = {"a": jnp.array([0.5, 1.0]), "c": jnp.array(2.0)}
    leaves0 = jax.tree.leaves(params)
    opt_state = tx.init(params)
    x = jnp.array([1.0, 2.0])
    for _ in range(3):
        params, opt_state = step(params, opt_state, x)
    return [jnp.sum(a - b) for a, b in zip(jax.tree.leaves(params), leaves0, strict=True)]
