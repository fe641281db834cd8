"""`nnx.state(model)` saved before an in-place `nnx.jit` training loop and returned.
Trap for AO201: the state holds the module's very arrays, which donating `model`
deletes."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    saved = nnx.state(model)
    x, y = jnp.ones((8, 3)), jnp.linspace(0.0, 1.0, 8).reshape(8, 1)
    for _ in range(10):
        loss = train_step(model, optimizer, x, y)
    return loss, saved
