"""An nnx module whose method builds a closure over the array of one of the module's own
layers (`kernel = self.proj.kernel[...]`), stored as a field, trained in place by an
`nnx.jit` step on batches of two sizes. Trap for AO201: a closure field is static to nnx,
but this one reads a leaf's buffer; donated, the second trace reads a deleted array."""

import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, n: int, *, rngs: nnx.Rngs):
        self.proj = nnx.Linear(n, n, rngs=rngs)
        self.block = self._block(n, rngs)

    def _block(self, n: int, rngs: nnx.Rngs):
        kernel = self.proj.kernel[...]
        norm = nnx.LayerNorm(n, rngs=rngs)

        def forward(x):
            return norm(x @ kernel)

        return forward

    def __call__(self, x):
        return self.block(self.proj(x))


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
