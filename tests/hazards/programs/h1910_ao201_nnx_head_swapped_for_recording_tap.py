"""nnx: after the model is built, its head is replaced by a recording wrapper
(`model.head = Tap(model.head)`), an activation hook that, while `HOOKS["on"]` is set
(only around evaluation), appends the wrapped layer's kernel to a module-level list;
the loop evaluates on a fresh probe after each `nnx.jit` step. Trap for AO201
(`donate_argnames`): the class as written calls a plain `nnx.Linear`, but the swapped
head keeps kernels, and donating `model` at the next step deletes them."""

import jax.numpy as jnp
import optax
from flax import nnx

HOOKS = {"on": False}
RECORDED = []


class Tap(nnx.Module):
    def __init__(self, inner):
        self.inner = inner

    def __call__(self, x):
        if HOOKS["on"]:
            RECORDED.append(self.inner.kernel[...])
        return self.inner(x)


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(2, 4, rngs=rngs)
        self.head = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(nnx.relu(self.hidden(x)))


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
    model.head = Tap(model.head)
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    outs = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        HOOKS["on"] = True
        outs.append(float(jnp.sum(model(jnp.ones((1, 2))))))
        HOOKS["on"] = False
    return outs, RECORDED
