"""An nnx module that keeps the caller's array as a parameter and hands it to a method
building a closure over it, stored as a field, trained in place by an `nnx.jit` step on
batches of two sizes. Trap for AO201: the closure reads the very buffer the module's
parameter holds; donated, the second trace reads a deleted array."""

import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, w, *, rngs: nnx.Rngs):
        self.w = nnx.Param(w)
        self.block = self._block(w, rngs)

    def _block(self, w, rngs: nnx.Rngs):
        norm = nnx.LayerNorm(4, rngs=rngs)

        def forward(x):
            return norm(x @ w)

        return forward

    def __call__(self, x):
        return self.block(x @ self.w)


@nnx.jit
def train_step(model, optimizer, x):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
    optimizer.update(grads)
    return loss


def main():
    model = Net(jnp.eye(4) * 0.5, rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    for rows in (2, 2, 3):
        loss = train_step(model, optimizer, jnp.ones((rows, 4)))
    return loss
