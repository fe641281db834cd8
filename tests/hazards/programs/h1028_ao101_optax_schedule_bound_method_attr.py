"""The learning rate comes from a scheduler object's bound method,
`optax.adam(learning_rate=sched.rate)`; the training loop calls `sched.on_plateau()`,
which halves `sched.base`. Trap for AO101/AO103: jitting the step that calls
`tx.update` runs `sched.rate` once at trace time, freezing `sched.base`."""

import jax
import jax.numpy as jnp
import optax


class Plateau:
    def __init__(self, base):
        self.base = base

    def rate(self, count):
        return self.base

    def on_plateau(self):
        self.base = self.base * 0.5


sched = Plateau(0.1)
tx = optax.adam(learning_rate=sched.rate)


def step(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.array([[2.0, 0.0], [0.0, 1.0], [1.0, -1.0]])
    y = jnp.array([1.0, 1.0, 0.0])
    params = jnp.zeros(2)
    opt_state = tx.init(params)
    for i in range(12):
        params, opt_state = step(params, opt_state, x, y)
        if i % 4 == 3:
            sched.on_plateau()
    return params
