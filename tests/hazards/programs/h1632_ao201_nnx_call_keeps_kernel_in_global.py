"""flax nnx model whose `__call__` remembers its kernel in a module-level list (a probe
for a plot), called once eagerly before training; an `nnx.jit` step trains it with an
optimizer built from it. Trap for AO201: the eager call is code of the program that
keeps the model's buffer, so donating the model deletes the array the list holds, which
the program reads after training."""

import jax  # noqa: F401
import jax.numpy as jnp
import optax
from flax import nnx

SEEN = []


class Net(nnx.Module):
    def __init__(self, rngs):
        self.dense = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        SEEN.append(self.dense.kernel.value)
        return self.dense(x)


def loss_fn(model, x):
    return jnp.mean(model(x) ** 2)


@nnx.jit
def train_step(model, optimizer, x):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x)
    optimizer.update(grads)
    return loss


def main():
    SEEN.clear()
    model = Net(nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    first = model(x)
    losses = []
    for _ in range(3):
        loss = train_step(model, optimizer, x)
        losses.append(loss)
    return jnp.stack(losses), first, SEEN[0].sum()
