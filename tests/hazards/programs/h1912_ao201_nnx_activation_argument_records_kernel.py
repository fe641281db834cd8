"""nnx: the activation is a constructor argument (`MLP(rngs, act=...)`); the one passed
is a module-level function that, outside a trace, records the hidden layer's kernel
of a model registered with it (`WATCH["model"]`); the loop evaluates on a fresh probe
after each `nnx.jit` step. Trap for AO201 (`donate_argnames`): donating `model` at the
next step deletes the recorded kernels."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx

WATCH = {}
KERNELS = []


def watched_gelu(h):
    if not isinstance(h, jax.core.Tracer):
        KERNELS.append(WATCH["model"].hidden.kernel[...])
    return nnx.gelu(h)


class MLP(nnx.Module):
    def __init__(self, rngs, act=nnx.relu):
        self.hidden = nnx.Linear(2, 4, rngs=rngs)
        self.head = nnx.Linear(4, 1, rngs=rngs)
        self.act = act

    def __call__(self, x):
        return self.head(self.act(self.hidden(x)))


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
    model = MLP(nnx.Rngs(0), act=watched_gelu)
    WATCH["model"] = model
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    outs = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        outs.append(float(jnp.sum(model(jnp.ones((1, 2))))))
    return outs, KERNELS
