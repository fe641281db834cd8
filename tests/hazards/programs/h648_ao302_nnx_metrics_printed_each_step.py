"""Training with `nnx.MultiMetric`: after each `nnx.jit` step the loss is fed to the
metric and the running average printed. Trap for AO302: the printed host values are
read every step (and the metric holds device state the step writes); printing after
the loop, or deferring the conversion, changes the output order."""

import jax.numpy as jnp
import optax
from flax import nnx


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(2))
    optimizer = nnx.Optimizer(model, optax.adam(0.1), wrt=nnx.Param)
    metrics = nnx.MultiMetric(loss=nnx.metrics.Average("loss"))
    x = jnp.linspace(-1.0, 1.0, 18).reshape(6, 3)
    y = jnp.sum(x, axis=1, keepdims=True)
    for step in range(6):
        loss = train_step(model, optimizer, x, y)
        metrics.update(loss=loss)
        print(f"step {step} avg loss {float(metrics.compute()['loss']):.5f}")
    return metrics.compute()["loss"], model.kernel.value
