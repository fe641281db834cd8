"""nnx: a bare `nnx.Linear` trained by a pure `nnx.jit` step in a counted loop with an
evaluation every 4 steps that reads the model. Control for the nnx whole loop (AO103):
no Python side effect anywhere, so running the steps between the evaluations as one
compiled loop keeps every result."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    grads = nnx.grad(loss_fn)(model)
    optimizer.update(model, grads)


def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(1))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1, momentum=0.9), wrt=nnx.Param)
    x = jnp.array([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]])
    y = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    evals = []
    for step in range(10):
        train_step(model, optimizer, x, y)
        if step % 4 == 0:
            evals.append(jnp.mean((model(x) - y) ** 2))
    return evals, model.bias.value
