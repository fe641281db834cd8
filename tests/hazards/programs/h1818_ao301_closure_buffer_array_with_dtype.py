"""nnx + NumPy: a replay buffer factory `make_replay(n, dim)` returns `(push, storage)`;
`push(row)` writes the newest row into the NumPy storage in place (a ring buffer); the
loop pushes a row each step and hands `jnp.array(storage, dtype=jnp.float32)` to an
`nnx.jit` step. Trap for AO301: the storage changes through the closure each iteration;
a hoisted transfer trains on the empty buffer."""

import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


def make_replay(n, dim):
    storage = np.zeros((n, dim), dtype=np.float64)
    cursor = [0]

    def push(row):
        storage[cursor[0] % n] = row
        cursor[0] += 1

    return push, storage


@nnx.jit
def train_step(model, optimizer, batch):
    def loss_fn(model):
        return jnp.mean((model(batch) - 1.0) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    push, storage = make_replay(4, 2)
    losses = []
    for t in range(5):
        push(np.array([t, 1.0 - t]))
        losses.append(train_step(model, optimizer, jnp.array(storage, dtype=jnp.float32)))
    return losses, model.kernel.value
