"""Least squares trained with a function-local optax Adam whose loss is printed every
five epochs. Trap for AO103: the compiled step takes the optimizer as a static argument
and donates the parameters and the optimizer state; Adam's moments and step count must
carry from step to step exactly as the eager loop carries them."""

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def main():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = jnp.sin(x.sum(axis=1, keepdims=True))
    params = {"w": jnp.zeros((3, 1)), "b": jnp.zeros(1)}
    opt = optax.adam(0.05)
    opt_state = opt.init(params)
    for epoch in range(30):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        if epoch % 5 == 0:
            print(epoch, round(float(loss), 4))
    return params, opt_state
