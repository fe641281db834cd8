"""An eager equinox training loop, `eqx.filter_value_and_grad(loss)(model, x, y)`, whose
loss reads the global `L2`; `set_l2(...)` rebinds it after each step (a warm-down).
Trap for AO103: a compiled step traces the loss once, keeping the first `L2`."""

import equinox as eqx
import jax
import jax.numpy as jnp

L2 = 0.5


def loss(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2) + L2 * jnp.sum(model.weight**2)


def set_l2(value):
    global L2
    L2 = value


def main():
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))
    x = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([[1.0], [2.0], [3.0]])
    losses = []
    for epoch in range(5):
        value, grads = eqx.filter_value_and_grad(loss)(model, x, y)
        model = jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)
        losses.append(value)
        set_l2(0.5 / (epoch + 2))
    return model.weight, jnp.stack(losses)
