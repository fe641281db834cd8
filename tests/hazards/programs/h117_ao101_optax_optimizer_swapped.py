"""Least squares with optax; halfway through, `switch()` rebinds the module's optimizer
through `global` (adam -> sgd). Trap for AO101: jit would freeze the first optimizer,
so `optimizer.update` is pure only on a global bound once and never changed."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

optimizer = optax.adam(0.1)


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


def train_step(w, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, w)
    return optax.apply_updates(w, updates), opt_state, loss


def switch():
    global optimizer
    optimizer = optax.sgd(0.05)


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(64, 3)), jnp.float32)
    y = x @ jnp.array([1.5, -2.0, 0.5])
    w = jnp.zeros(3)
    opt_state = optimizer.init(w)
    for epoch in range(20):
        if epoch == 10:
            switch()
            opt_state = optimizer.init(w)
        w, opt_state, loss = train_step(w, opt_state, x, y)
    return w, loss
