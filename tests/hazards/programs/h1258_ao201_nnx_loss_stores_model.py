"""An nnx loss function that records the last model it saw in a module list,
`SEEN.append(model)`, for debugging, run eagerly before training; the loop then trains
with an `nnx.jit` step. Trap for AO201: `SEEN[0]` is the model itself (written back in
place), so it follows the updates; a donation is harmless only if nothing else keeps
its old arrays: the eager `jnp.asarray(model.kernel)` kept before training is one."""

import jax.numpy as jnp
import optax
from flax import nnx

SEEN = []


def loss_fn(model, x, y):
    SEEN.append(model)
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(4))
    optimizer = nnx.Optimizer(model, optax.sgd(0.2), wrt=nnx.Param)
    x = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    start = loss_fn(model, x, y)
    kernel0 = jnp.asarray(model.kernel)
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    moved = jnp.abs(SEEN[0].kernel[...] - kernel0).sum()
    return start, loss, moved
