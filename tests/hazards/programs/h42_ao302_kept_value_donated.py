"""Training step that donates its state dict; the loop logs `state["loss"]` as a Python
float. Trap for AO302: kept on the device instead, the logged loss is a leaf of the
state that the next step donates, so fetching it after the loop reads a deleted
buffer (aliasing through a dict)."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, x):
    loss, g = jax.value_and_grad(lambda w: jnp.sum((w - x) ** 2))(state["w"])
    return {"w": state["w"] - 0.1 * g, "loss": loss}


def main():
    xs = jnp.linspace(0.0, 1.0, 24).reshape(8, 3)
    state = {"w": jnp.zeros(3), "loss": jnp.zeros(())}
    losses = []
    for x in xs:
        state = train_step(state, x)
        losses.append(float(state["loss"]))
    return losses, state["w"]
