"""Control (for h1460, h1461, issue 26): an nnx model of flax layers and a block class,
displayed as soon as it is built (`nnx.display` prints it here; treescope draws it in
IPython), then trained by an `nnx.jit` step. Rendering keeps nothing: donating `model`
and its optimizer keeps the results and the printed text."""

import contextlib
import io

import jax.numpy as jnp
import optax
from flax import nnx


class Block(nnx.Module):
    def __init__(self, size: int, down: bool = False, *, rngs: nnx.Rngs):
        self.dense = nnx.Linear(size, size, use_bias=not down, rngs=rngs)
        self.norm = nnx.LayerNorm(size, epsilon=1e-5, rngs=rngs)
        self.skip = lambda x: x

    def __call__(self, x):
        return self.skip(x) + nnx.relu(self.norm(self.dense(x)))


class Net(nnx.Module):
    def __init__(self, n_out: int, *, rngs: nnx.Rngs):
        self.n_out = n_out
        self.blocks = nnx.Sequential(Block(3, rngs=rngs), Block(3, down=True, rngs=rngs))
        self.out = nnx.Linear(3, self.n_out, rngs=rngs)

    def __call__(self, x):
        return self.out(self.blocks(x))


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss(model):
        return ((model(x) - y) ** 2).mean()

    value, grads = nnx.value_and_grad(loss)(model)
    optimizer.update(grads)
    return value


def main():
    shown = io.StringIO()  # the text holds function addresses: only its length is kept
    with contextlib.redirect_stdout(shown):
        model = Net(2, rngs=nnx.Rngs(0))
        nnx.display(model)
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x, y = jnp.linspace(0.0, 1.0, 12).reshape(4, 3), jnp.zeros((4, 2))
    total = jnp.zeros(())
    for _ in range(5):
        loss = train_step(model, optimizer, x, y)
        total = total + loss
    return len(shown.getvalue().splitlines()), total, loss, model.out.kernel.value
