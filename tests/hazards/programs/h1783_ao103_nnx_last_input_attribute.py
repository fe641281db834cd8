"""nnx: a model that keeps its last input in a plain attribute (`self.last = x.shape`)
and a Python-side cache of how many distinct shapes it saw; the eval every 3 steps runs a
different batch size. Trap for AO103 (nnx whole loop): each step sees the attribute set
by the eval and retraces; a compiled loop of the steps in between changes what the
cache counts."""

import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(2, 2, rngs=rngs)
        self.last = None
        self.traces = 0

    def __call__(self, x):
        if self.last != x.shape:
            self.traces += 1
        self.last = x.shape
        return self.lin(x)


@nnx.jit
def train_step(model, optimizer, x):
    def loss_fn(model):
        return jnp.mean(model(x) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = Net(nnx.Rngs(2))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x_train = jnp.ones((4, 2))
    x_eval = jnp.ones((2, 2)) * 0.5
    out = []
    for step in range(9):
        loss = train_step(model, optimizer, x_train)
        if step % 3 == 0:
            out.append(float(jnp.sum(model(x_eval))))
            out.append(model.traces)
    return out, loss
