"""equinox, notebook style: `def make_step(...)` first, then `make_step =
eqx.filter_jit(make_step)` in a later cell; a logging helper called between steps keeps
the model in a list of checkpoints. Trap for AO201: donating the model deletes the
weights the checkpoints hold."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Lin(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return x @ self.w + self.b


optim = optax.sgd(0.1)


def loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


loss = eqx.filter_jit(loss)


def make_step(model, opt_state, x, y):
    grads = eqx.filter_grad(loss)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state


make_step = eqx.filter_jit(make_step)


def log_checkpoint(model, checkpoints):
    checkpoints.append(model)


def main():
    model = Lin(jnp.ones((2, 2)), jnp.zeros(2))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.arange(8.0).reshape(4, 2) / 8.0
    y = jnp.ones((4, 2))
    checkpoints = []
    for step in range(4):
        model, opt_state = make_step(model, opt_state, x, y)
        if step % 2 == 0:
            log_checkpoint(model, checkpoints)
    return [loss(m, x, y) for m in checkpoints], model.w
