"""flax nnx model built with a factory method that returns a closure over a layer and
a gain array; the gain handed to the factory is the model's own parameter value, so the
closure holds a buffer of the model outside its variables. Trap for AO201: donating the
model deletes that buffer; the eager evaluation after training runs the closure, which
reads it."""

import jax  # noqa: F401
import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.gain = nnx.Param(jnp.full((3,), 1.5))
        self.block = self._make_block(3, self.gain.value, rngs)

    def _make_block(self, width, gain, rngs):
        dense = nnx.Linear(width, width, rngs=rngs)

        def forward(x):
            return dense(x) * gain

        return forward

    def __call__(self, x):
        return self.block(x) * self.gain


def loss_fn(model, x):
    return jnp.mean(model(x) ** 2)


@nnx.jit
def train_step(model, optimizer, x):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x)
    optimizer.update(grads)
    return loss


def main():
    model = Net(nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    losses = []
    for _ in range(3):
        loss = train_step(model, optimizer, x)
        losses.append(loss)
    return jnp.stack(losses), model(x)
