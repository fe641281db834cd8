"""Functional loop with `optax.contrib.mechanize(optax.sgd(...))`, params and state donated."""

import functools

import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


opt = optax.contrib.mechanize(optax.sgd(0.1))


@functools.partial(jax.jit, static_argnums=())
def update(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (12, 3))
    y = x @ jnp.array([1.0, -2.0, 0.5]) + 0.3
    params = {"w": jnp.zeros((3,)), "b": jnp.zeros(())}
    opt_state = opt.init(params)
    losses = []
    for _ in range(6):
        params, opt_state, loss = update(params, opt_state, x, y)
        losses.append(loss)
    return params, jnp.stack(losses)
