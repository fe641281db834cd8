"""A counted loop of a small `nnx.jit` training step that updates the model and its
optimizer in place, with an evaluation every 10 steps. Trap for AO103: a `jax.jit` step
(or scan) around the call cannot write the modules back: the model would stop learning
after the first call, or the evaluation would read stale weights."""

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
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = x.sum(axis=1, keepdims=True)
    for i in range(40):
        train_step(model, optimizer, x, y)
        if i % 10 == 0:
            print(i, round(float(loss_fn(model, x, y)), 4))
    return model.kernel[...], model.bias[...]
