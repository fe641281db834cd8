"""nnx: hooks are registered by layer name, `setattr(model, name, Hook(getattr(model,
name)))` for each name in a list, a wrapper that appends the wrapped layer's bias to a
module-level list whenever it runs outside a trace; the loop evaluates on a fresh
probe after each `nnx.jit` step. Trap for AO201 (`donate_argnames`): donating `model`
at the next step deletes the biases the hooks kept."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx

BIASES = []


class Hook(nnx.Module):
    def __init__(self, inner):
        self.inner = inner

    def __call__(self, x):
        if not isinstance(x, jax.core.Tracer):
            BIASES.append(self.inner.bias[...])
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
    for name in ["hidden"]:
        setattr(model, name, Hook(getattr(model, name)))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    outs = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        outs.append(float(jnp.sum(model(jnp.ones((1, 2))))))
    return outs, BIASES
