"""nnx distillation: the teacher is `nnx.clone(model)` taken before the student trains."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(3, 8, rngs=rngs)
        self.l2 = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.l2(nnx.relu(self.l1(x)))[:, 0]


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(m):
        return jnp.mean((m(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = MLP(nnx.Rngs(0))
    teacher = nnx.clone(model)
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(1), (16, 3))
    y = jnp.sin(x[:, 0])
    for _ in range(5):
        loss = train_step(model, optimizer, x, y)
    gap = jnp.mean((teacher(x) - model(x)) ** 2)
    return loss, gap
