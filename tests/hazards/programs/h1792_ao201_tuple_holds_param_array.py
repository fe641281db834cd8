"""optax + jax.jit: a `Schedule` built from `(params["w"], 0.9)` keeps the first weight
in a tuple for an anchor loss; the train step is given the params and returns new ones.
Trap for AO201: donating `params` deletes the anchor array the tuple holds."""

import jax
import jax.numpy as jnp
import optax

tx = optax.sgd(0.2)


class Schedule:
    def __init__(self, anchor):
        self.anchor = anchor

    def penalty(self, params):
        w0, decay = self.anchor
        return decay * jnp.sum((params["w"] - w0) ** 2)


@jax.jit
def train_step(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((p["w"] * x - 1.0) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    params = {"w": jnp.array([0.1, 0.2, 0.3])}
    schedule = Schedule((params["w"], 0.9))
    opt_state = tx.init(params)
    x = jnp.array([1.0, 2.0, 3.0])
    for _ in range(3):
        params, opt_state = train_step(params, opt_state, x)
    return schedule.penalty(params)
