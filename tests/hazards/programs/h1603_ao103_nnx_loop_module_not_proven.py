"""flax nnx, an eager counted loop of an `nnx.jit` step read every 5 steps: the optimizer
comes from a factory returning a wrapper or an optimizer. Trap for AO103 (nnx whole
loop): `optimizer` is not proven an nnx object (its state would not be carried); no fix,
the argument named."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


def make_optimizer(model):
    return nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)


@nnx.jit
def train_step(model, optimizer, x, y):
    scale = jnp.mean(x) - jnp.mean(y)
    grads = jax.tree.map(lambda p: p * scale + 0.01, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = make_optimizer(model)
    x = jnp.linspace(-1.0, 2.0, 24).reshape(8, 3)
    y = jnp.ones((8, 1))
    sums = []
    for i in range(23):
        train_step(model, optimizer, x, y)
        if i % 5 == 0:
            sums.append(float(jnp.sum(model.kernel[...])))
    return sums, model.kernel[...], model.bias[...], i
