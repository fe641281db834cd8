"""An nnx model class with an `eval` method of its own, which keeps the output bias in a
module list, called like flax's `model.eval()` before training and read after it (issue
26). Trap for AO201: `model.eval()` is flax's method only where the class defines none;
donating `model` to the `nnx.jit` step deletes the array the list holds."""

import jax.numpy as jnp
import optax
from flax import nnx

SEEN = []


class Net(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))

    def eval(self):
        SEEN.append(self.out.bias.value)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss(model):
        return ((model(x) - y) ** 2).mean()

    optimizer.update(nnx.grad(loss)(model))


def main():
    model = Net(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))
    model.eval()
    for _ in range(5):
        train_step(model, optimizer, x, y)
    return SEEN[0], model.out.bias.value
