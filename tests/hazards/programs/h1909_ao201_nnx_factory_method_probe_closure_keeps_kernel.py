"""nnx: the model builds an evaluation probe in `__init__` with a factory method,
`self.probe = self._make_probe(self.head)`, a nested `def probe(x)` that closes over
the head layer and appends its kernel to a module-level list before it predicts; the
loop calls `model.probe(batch)` after each `nnx.jit` step. Trap for AO201
(`donate_argnames`): donating `model` at the next step deletes the kernels the list
holds."""

import jax.numpy as jnp
import optax
from flax import nnx

PROBED = []


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(2, 4, rngs=rngs)
        self.head = nnx.Linear(4, 1, rngs=rngs)
        self.probe = self._make_probe(self.head)

    def _make_probe(self, head):
        def probe(x):
            PROBED.append(head.kernel[...])
            return self(x)

        return probe

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
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    outs = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        outs.append(float(jnp.sum(model.probe(jnp.ones((1, 2))))))
    return outs, PROBED
