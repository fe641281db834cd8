"""An nnx module that keeps a module-level array as a parameter and builds, in a method,
a closure reading that global, stored as a field, trained in place by an `nnx.jit` step
on batches of two sizes. Trap for AO201: the closure reads the buffer the parameter
holds; donated, the second trace reads a deleted array."""

import jax.numpy as jnp
import optax
from flax import nnx

SCALE = jnp.eye(4) * 0.5


class Net(nnx.Module):
    def __init__(self, n: int, *, rngs: nnx.Rngs):
        self.scale = nnx.Param(SCALE)
        self.block = self._block(n, rngs)

    def _block(self, n: int, rngs: nnx.Rngs):
        norm = nnx.LayerNorm(n, rngs=rngs)

        def forward(x):
            return norm(x @ SCALE)

        return forward

    def __call__(self, x):
        return self.block(x @ self.scale)


@nnx.jit
def train_step(model, optimizer, x):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
    optimizer.update(grads)
    return loss


def main():
    model = Net(4, rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    for rows in (2, 2, 3):
        loss = train_step(model, optimizer, jnp.ones((rows, 4)))
    return loss
