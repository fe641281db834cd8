"""Control (for h1684-h1687): an nnx module whose methods build new layers and return a
closure over them (a U-Net's residual block), stored as fields, trained in place by an
`nnx.jit` step on batches of two sizes. The closures' layers are static to nnx, no leaf
of the module: donating the module and its optimizer is safe, and each trace reads the
closures' layers as they are."""

import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, n: int, *, rngs: nnx.Rngs):
        self.proj = nnx.Linear(n, n, rngs=rngs)
        self.down = self._block(n, n * 2, rngs)
        self.up = self._block(n, n * 2, rngs)

    def _block(self, n_in: int, n_out: int, rngs: nnx.Rngs):
        """A residual block."""
        expand = nnx.Linear(n_in, n_out, rngs=rngs)
        norm = nnx.LayerNorm(n_out, rngs=rngs)
        back = nnx.Linear(in_features=n_out, out_features=n_in, rngs=rngs)

        def forward(x):
            return x + back(nnx.gelu(norm(expand(x))))

        return forward

    def __call__(self, x):
        return self.up(self.down(self.proj(x)))


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
