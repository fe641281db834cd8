"""nnx: `w0 = model.kernel.value` taken before training (a plain local), then a bare
`nnx.Linear` trained by an `nnx.jit` step; the loop returns the kernel's change. Trap
for AO201: donating `model` deletes the array `w0` names."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)


def main():
    model = nnx.Linear(2, 3, rngs=nnx.Rngs(1))
    w0 = model.kernel.value
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.array([[1.0, 1.0]])
    y = jnp.array([[0.0, 1.0, 2.0]])
    for _ in range(3):
        train_step(model, optimizer, x, y)
    return model.kernel.value - w0
