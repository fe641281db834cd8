"""SGD through `optax.inject_hyperparams`, whose learning rate the loop lowers every
epoch by writing into the optimizer state's `hyperparams` dict. Trap for AO103: the
optimizer comes from a call the optax overlay does not list, and its state is changed in
place between steps; a compiled step that assumed a plain optax optimizer, or donated the
state the loop then writes into, would train at the wrong rate or fail."""

import jax
import jax.numpy as jnp
import optax


def loss_fn(w, x):
    return jnp.sum((x @ w - 1.0) ** 2)


def main():
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    w = jnp.ones(3)
    opt = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)
    opt_state = opt.init(w)
    for epoch in range(12):
        grads = jax.grad(loss_fn)(w, x)
        updates, opt_state = opt.update(grads, opt_state)
        w = optax.apply_updates(w, updates)
        opt_state.hyperparams["learning_rate"] = jnp.asarray(0.1 / (epoch + 2))
    return w
