"""nnx: control. `graphdef, init_state = nnx.split(model)` meant to keep the initial
state for a reset with `nnx.merge(graphdef, init_state)`; in flax 0.12 the state holds
the model's own `Variable` objects, which `nnx.jit` updates in place, so the "reset"
model is the trained one. Donating `model` (AO201) replaces the variables' arrays in
place too: the state sees the new arrays and nothing deleted is read."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)


def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(3))
    graphdef, init_state = nnx.split(model)
    optimizer = nnx.Optimizer(model, optax.adam(0.1), wrt=nnx.Param)
    x = jnp.array([[1.0, 2.0], [3.0, 4.0]])
    y = jnp.array([[0.0, 1.0], [1.0, 0.0]])
    for _ in range(4):
        train_step(model, optimizer, x, y)
    reset = nnx.merge(graphdef, init_state)
    return jnp.sum(model(x)), jnp.sum(reset(x))
