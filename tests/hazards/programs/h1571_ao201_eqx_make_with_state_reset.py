"""Equinox BatchNorm model from `make_with_state`; the initial state is kept to run twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    linear: eqx.nn.Linear
    norm: eqx.nn.BatchNorm

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)
        self.norm = eqx.nn.BatchNorm(4, axis_name="batch")

    def __call__(self, x, state):
        h, state = self.norm(self.linear(x), state)
        return h.sum(), state


@eqx.filter_jit
def step(model, state, x, y):
    def loss_fn(m, s):
        pred, s = jax.vmap(m, axis_name="batch", in_axes=(0, None), out_axes=(0, None))(x, s)
        return jnp.mean((pred - y) ** 2), s

    (loss, state), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model, state)
    model = eqx.apply_updates(model, jax.tree.map(lambda g: -0.05 * g, grads))
    return model, state, loss


def train(model, state, x, y, steps):
    for _ in range(steps):
        model, state, loss = step(model, state, x, y)
    return loss


def main():
    model, state0 = eqx.nn.make_with_state(Model)(jax.random.PRNGKey(0))
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 3))
    y = x.sum(axis=1)
    first = train(model, state0, x, y, 3)
    second = train(model, state0, x, y, 5)
    return first, second
