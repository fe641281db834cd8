"""nnx: a `kernel_norm` property of the model also logs the kernel it measures in a
module-level list (for a plot of singular values later); the loop reads
`model.kernel_norm` after each `nnx.jit` step, a plain attribute read that runs the
property's code. Trap for AO201 (`donate_argnames`): donating `model` at the next step
deletes the kernels the log holds."""

import jax.numpy as jnp
import optax
from flax import nnx

KERNEL_LOG = []


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(2, 4, rngs=rngs)
        self.head = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.head(nnx.relu(self.hidden(x)))

    @property
    def kernel_norm(self):
        kernel = self.hidden.kernel[...]
        KERNEL_LOG.append(kernel)
        return jnp.linalg.norm(kernel)


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
    norms = []
    for _ in range(4):
        train_step(model, optimizer, x, y)
        norms.append(float(model.kernel_norm))
    return norms, KERNEL_LOG
