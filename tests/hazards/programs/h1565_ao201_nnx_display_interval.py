"""nnx loop that shows a parameter every few steps with a print of the kernel list."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Model(nnx.Module):
    def __init__(self, rngs):
        self.dense = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        return self.dense(x)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = Model(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 2))
    y = x[:, ::-1]
    kernels = []
    for step in range(6):
        loss = train_step(model, optimizer, x, y)
        if step % 2 == 0:
            kernels.append(model.dense.kernel.value)
            print(step, jnp.round(kernels[-1], 3).tolist())
    return loss, jnp.stack(kernels)
