"""An nnx model class whose `__call__` keeps its output bias in a module list, called
eagerly once before training (`model(x)`) and the list read after it (issue 26). Trap
for AO201: calling the object runs its class's code, which may keep the object's own
buffers; donating `model` to the `nnx.jit` step deletes the array the list holds."""

import jax.numpy as jnp
import optax
from flax import nnx

SEEN = []


class Net(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        SEEN.append(self.out.bias.value)
        return self.out(nnx.relu(self.hidden(x)))


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss(model):
        return ((model(x) - y) ** 2).mean()

    optimizer.update(nnx.grad(loss)(model))


def main():
    model = Net(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))
    model(x)
    for _ in range(5):
        train_step(model, optimizer, x, y)
    return SEEN[0], model.out.bias.value
