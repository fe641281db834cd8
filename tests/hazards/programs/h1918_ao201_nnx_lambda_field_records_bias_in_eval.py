"""nnx: the model holds a lambda in a field, `self.readout = lambda h: ...`, which,
while evaluation mode is on (`MODE["eval"]`, set only around the evaluation call),
appends the head's bias to a module-level list before it applies the head; the loop
evaluates on a fresh probe after each `nnx.jit` step. Trap for AO201
(`donate_argnames`): donating `model` at the next step deletes the biases the list
holds."""

import jax.numpy as jnp
import optax
from flax import nnx

MODE = {"eval": False}
BIASES = []


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(2, 4, rngs=rngs)
        self.head = nnx.Linear(4, 1, rngs=rngs)
        self.readout = lambda h: self.head(
            h if not MODE["eval"] else BIASES.append(self.head.bias[...]) or h
        )

    def __call__(self, x):
        return self.readout(nnx.relu(self.hidden(x)))


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([[2.0], [-1.0]])
    model = MLP(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    outs = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        MODE["eval"] = True
        outs.append(float(jnp.sum(model(jnp.ones((1, 2))))))
        MODE["eval"] = False
    return outs, BIASES
