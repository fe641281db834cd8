"""nnx: an evaluation helper called every 2 steps stores the model's kernel array on a
`Report` object (`report.kernel = model.kernel.value`); a bare `nnx.Linear` is trained
by an `nnx.jit` step; the report is read after training. Trap for AO201: donating
`model` at the step after an evaluation (the last at step 4 of 6) deletes the kernel
the report holds."""

import jax.numpy as jnp
import optax
from flax import nnx


class Report:
    def __init__(self):
        self.kernel = None
        self.loss = None


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def evaluate(model, x, y, report):
    report.kernel = model.kernel.value
    report.loss = jnp.mean((model(x) - y) ** 2)


def main():
    model = nnx.Linear(2, 1, rngs=nnx.Rngs(4))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    report = Report()
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([[2.0], [-1.0]])
    for step in range(6):
        train_step(model, optimizer, x, y)
        if step % 2 == 0:
            evaluate(model, x, y, report)
    return report.kernel, report.loss
