"""flax TrainState training with a step the user already jitted with
`donate_argnums=0`; the loop logs `int(state.step)` every iteration into a list. Trap for
AO302: keeping `state.step` on the device until after the loop keeps a buffer of the
donated state, which the next step deletes before the one `device_get`."""

import functools

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@functools.partial(jax.jit, donate_argnums=0)
def train_step(state, x, y):
    def loss_fn(params):
        return jnp.mean((x @ params["w"] - y) ** 2)

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


def main():
    state = train_state.TrainState.create(
        apply_fn=None, params={"w": jnp.zeros((2, 1))}, tx=optax.sgd(0.1)
    )
    x = jnp.array([[1.0, 2.0], [0.0, 1.0]])
    y = jnp.array([[1.0], [0.5]])
    steps = []
    for _ in range(4):
        state = train_step(state, x, y)
        steps.append(int(state.step))
    return steps, state.params
