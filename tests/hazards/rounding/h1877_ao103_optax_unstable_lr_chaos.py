"""optax: a plain training loop (`jax.value_and_grad`, `tx.update`,
`optax.apply_updates`, the losses appended) on a double-well loss with a learning rate
past the stability edge, as in a learning-rate sweep that shows where training stops
converging: gradient descent then iterates a chaotic cubic map, and one-ulp differences
double every few steps. Trap for AO103: the compiled step fuses the gradient and the
update (`w - lr * g` becomes a fused multiply-add, rounded once), so after 120 steps the
parameters and the last losses are unrelated to the eager run's, far beyond float
tolerance."""

import jax
import jax.numpy as jnp
import optax


def loss_fn(params):
    w = params["w"]
    return jnp.sum((w * w - 1.0) ** 2)


def main():
    tx = optax.sgd(0.4)
    params = {"w": jnp.array([0.3, -0.55, 0.8])}
    opt_state = tx.init(params)
    losses = []
    for _ in range(120):
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        losses.append(loss)
    return params, jnp.stack(losses)
