"""An nnx model of blocks, the block class rendering itself: `nnx.display` of the model
runs the block's `__nnx_repr__` (flax's hook), which keeps the block's kernel in a
module list read after training (issue 26). Trap for AO201: the model's own class
defines no hook, a field's does; donating `model` deletes the kernel the list holds."""

import jax.numpy as jnp
import optax
from flax import nnx
from flax.nnx import reprlib

SEEN = []


class Block(nnx.Module):
    def __init__(self, size: int, *, rngs: nnx.Rngs):
        self.dense = nnx.Linear(size, size, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.dense(x))

    def __nnx_repr__(self):
        SEEN.append(self.dense.kernel.value)
        yield reprlib.Object(type=type(self), empty_repr="Block()")


class Net(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.blocks = nnx.Sequential(Block(3, rngs=rngs), Block(3, rngs=rngs))

    def __call__(self, x):
        return self.blocks(x)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss(model):
        return ((model(x) - y) ** 2).mean()

    optimizer.update(nnx.grad(loss)(model))


def main():
    model = Net(rngs=nnx.Rngs(0))
    nnx.display(model)
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 3))
    for _ in range(5):
        train_step(model, optimizer, x, y)
    return SEEN[0].sum(), model.blocks.layers[1].dense.bias.value
