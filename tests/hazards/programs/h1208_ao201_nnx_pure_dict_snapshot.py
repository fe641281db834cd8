"""An nnx loop that snapshots the initial parameters with
`nnx.state(model, nnx.Param).to_pure_dict()` (a dict of the model's own arrays) and
reports the per-parameter change after training. Trap for AO201: donating the model to
`nnx.jit` deletes the arrays of the snapshot."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(2, 4, rngs=rngs)
        self.l2 = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(jnp.tanh(self.l1(x)))


@nnx.jit
def step(model, opt, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    opt.update(model, grads)
    return loss


def main():
    model = MLP(nnx.Rngs(2))
    start = nnx.state(model, nnx.Param).to_pure_dict()
    opt = nnx.Optimizer(model, optax.adam(0.05), wrt=nnx.Param)
    x = jnp.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    y = jnp.array([[1.0], [1.0], [0.0], [0.0]])
    for _ in range(5):
        loss = step(model, opt, x, y)
    now = nnx.state(model, nnx.Param).to_pure_dict()
    change = jax.tree.map(lambda a, b: jnp.abs(a - b).sum(), now, start)
    return loss, change
