"""nnx: an optimizer over a model whose second layer's kernel is assigned the first
layer's (a tied weight set after construction), trained with `nnx.jit`.
"""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class TiedMLP(nnx.Module):
    def __init__(self, rngs):
        self.l1 = nnx.Linear(4, 4, rngs=rngs)
        self.l2 = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        return self.l2(jax.nn.relu(self.l1(x)))


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = TiedMLP(nnx.Rngs(0))
    model.l2.kernel.value = model.l1.kernel.value
    optimizer = nnx.Optimizer(model, optax.sgd(0.05), wrt=nnx.Param)
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 4))
    y = jnp.flip(x, axis=1)
    for _ in range(4):
        loss = train_step(model, optimizer, x, y)
    return loss, model.l2.kernel.value.sum()
