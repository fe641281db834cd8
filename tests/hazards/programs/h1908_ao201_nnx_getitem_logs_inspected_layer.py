"""nnx: a `Stack` of linear layers supports `stack[i]`, whose `__getitem__` also logs
the bias of the layer it hands out (an inspection log kept in a module-level list);
the loop inspects layer 0 after each `nnx.jit` step and keeps only a float of it.
Trap for AO201 (`donate_argnames`): donating `model` at the next step deletes the
biases the log holds."""

import jax.numpy as jnp
import optax
from flax import nnx

INSPECTED = []


class Stack(nnx.Module):
    def __init__(self, rngs):
        self.first = nnx.Linear(2, 3, rngs=rngs)
        self.second = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.second(nnx.tanh(self.first(x)))

    def __getitem__(self, i):
        layer = (self.first, self.second)[i]
        INSPECTED.append(layer.bias[...])
        return layer


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([[1.0], [-1.0]])
    model = Stack(nnx.Rngs(1))
    optimizer = nnx.Optimizer(model, optax.sgd(0.2), wrt=nnx.Param)
    sums = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        sums.append(float(jnp.sum(model[0].kernel[...])))
    return sums, INSPECTED
