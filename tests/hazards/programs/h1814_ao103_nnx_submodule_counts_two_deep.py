"""nnx: an `Encoder` whose `__call__` bumps a plain int (`self.uses += 1`), held by a
`Model` that calls it; the loss takes the model as an argument and the `nnx.jit` step
runs in a counted loop with an evaluation every 3 steps. Trap for AO103 (nnx whole
loop): the int in the submodule changes the graph, so every step retraces and counts;
one compiled loop of the steps cannot carry a changing graph."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Encoder(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(3, 3, rngs=rngs)
        self.uses = 0

    def __call__(self, x):
        self.uses += 1
        return jax.nn.gelu(self.lin(x))


class Model(nnx.Module):
    def __init__(self, rngs):
        self.encoder = Encoder(rngs)
        self.head = nnx.Linear(3, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(self.encoder(x))


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def main():
    model = Model(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.02), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.array([[0.0], [1.0], [1.0], [0.0]])
    out = []
    for step in range(9):
        train_step(model, optimizer, x, y)
        if step % 3 == 0:
            out.append((model.encoder.uses, loss_fn(model, x, y)))
    return out
