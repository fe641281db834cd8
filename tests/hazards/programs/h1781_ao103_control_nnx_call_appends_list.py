"""nnx: control. A model whose `__call__` appends the batch size to a plain list
attribute (a Python-side log), trained by an `nnx.jit` step with an eager evaluation
every 2 steps. The append runs only when the step is traced, and the list changes the
graph only at the evaluations: a compiled loop of the steps between the evaluations
(AO103, nnx whole loop) traces at the same points and keeps the log (checked by hand
with `nnx.fori_loop` under `@nnx.jit`)."""

import jax.numpy as jnp
import optax
from flax import nnx


class Model(nnx.Module):
    def __init__(self, rngs):
        self.dense = nnx.Linear(2, 1, rngs=rngs)
        self.log = []

    def __call__(self, x):
        self.log.append(x.shape[0])
        return self.dense(x)


@nnx.jit
def train_step(model, optimizer, batch):
    def loss_fn(model):
        return jnp.mean((model(batch["x"]) - batch["y"]) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = Model(nnx.Rngs(1))
    optimizer = nnx.Optimizer(model, optax.adam(0.05), wrt=nnx.Param)
    batch = {"x": jnp.arange(6.0).reshape(3, 2), "y": jnp.ones((3, 1))}
    history = []
    for i in range(6):
        train_step(model, optimizer, batch)
        if i % 2 == 1:
            history.append((len(model.log), float(jnp.sum(model(batch["x"])))))
    return history, model.dense.kernel.value
