"""An nnx ResNet-like model: `nnx.Sequential`s of `Conv`/`BatchNorm` layers and of
blocks of the program, a block's shortcut a `Sequential` or `lambda x: x`. One block's
`__call__` keeps its convolution's kernel in a module list, and the model is called
eagerly once before training (issue 26). Trap for AO201: the proof that `model(x)` keeps
nothing reads every element of each `Sequential`; donating `model` to the `nnx.jit` step
deletes the kernel the list holds."""

import jax.numpy as jnp
import optax
from flax import nnx

SEEN = []


class Block(nnx.Module):
    def __init__(self, size: int, down: bool = False, *, rngs: nnx.Rngs):
        self.main = nnx.Sequential(
            nnx.Conv(size, size, kernel_size=(3, 3), padding="SAME", rngs=rngs),
            nnx.BatchNorm(size, momentum=0.9, rngs=rngs),
        )
        if down:
            self.skip = nnx.Sequential(nnx.Conv(size, size, kernel_size=(1, 1), rngs=rngs))
        else:
            self.skip = lambda x: x

    def __call__(self, x):
        out = nnx.relu(self.main(x))
        out += self.skip(x)
        return out


class Keeper(nnx.Module):
    def __init__(self, size: int, *, rngs: nnx.Rngs):
        self.conv = nnx.Conv(size, size, kernel_size=(1, 1), rngs=rngs)

    def __call__(self, x):
        SEEN.append(self.conv.kernel.value)
        return self.conv(x)


class Net(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.stem = nnx.Sequential(
            nnx.Conv(1, 4, kernel_size=(3, 3), rngs=rngs), nnx.BatchNorm(4, rngs=rngs)
        )
        self.blocks = nnx.Sequential(
            Block(4, rngs=rngs), Block(4, down=True, rngs=rngs), Keeper(4, rngs=rngs)
        )
        self.fc = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        x = nnx.max_pool(self.stem(x), (2, 2), strides=(2, 2))
        x = self.blocks(x)
        x = nnx.avg_pool(x, (x.shape[1], x.shape[2]))
        return self.fc(x.reshape((x.shape[0], -1)))


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss(model):
        return ((model(x) - y) ** 2).mean()

    optimizer.update(nnx.grad(loss)(model))


def main():
    model = Net(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x = jnp.linspace(-1.0, 1.0, 2 * 8 * 8).reshape(2, 8, 8, 1)
    y = jnp.zeros((2, 1))
    model(x)
    for _ in range(3):
        train_step(model, optimizer, x, y)
    return SEEN[0], model.fc.bias.value
