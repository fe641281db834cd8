"""nnx loop: a Python `progress` number, eval every 3 steps, losses read after the loop."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x)[:, 0] - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def eval_step(model, x, y):
    return jnp.mean((model(x)[:, 0] - y) ** 2)


def main():
    model = nnx.Linear(2, 1, rngs=nnx.Rngs(1))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(2), (12, 2))
    y = x @ jnp.array([1.0, -1.0])
    losses = []
    progress = 0
    for step in range(9):
        loss = train_step(model, optimizer, x, y)
        losses.append(float(loss))
        progress += 1
        if step % 3 == 2:
            ev = eval_step(model, x, y)
            print(f"progress {progress}/9 train {losses[-1]:.5f} eval {float(ev):.5f}")
    return losses, progress
