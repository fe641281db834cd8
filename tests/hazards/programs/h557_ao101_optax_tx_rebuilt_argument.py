"""Framework hazard (issue 26): an optax optimizer passed as an argument to the step.

The learning rate decays per epoch by building a new `optax.sgd(lr)` each epoch
(the momentum state carries over: same structure). The eager step takes the
optimizer as its third argument. Under `jax.jit` a GradientTransformation is not a
valid argument (it holds functions); jitted with the optimizer closed over or frozen
at its first value, the later epochs would use the first learning rate.
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax

EPOCHS = 4
STEPS = 6


def loss_fn(w, x, y):
    return jnp.mean((jnp.tanh(x @ w) - y) ** 2)


def train_step(w, opt_state, tx, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    updates, opt_state = tx.update(grads, opt_state, w)
    return optax.apply_updates(w, updates), opt_state, loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(100, 3)).astype(np.float32))
    y = jnp.tanh(x @ jnp.array([0.5, -1.0, 2.0]))
    w = jnp.zeros(3)
    opt_state = optax.sgd(1.0, momentum=0.9).init(w)
    losses = []
    for epoch in range(EPOCHS):
        tx = optax.sgd(1.0 / (epoch + 1), momentum=0.9)
        for _ in range(STEPS):
            w, opt_state, loss = train_step(w, opt_state, tx, x, y)
            losses.append(loss)
    return {"losses": jnp.stack(losses), "w": w}
