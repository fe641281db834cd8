"""An eager loop step around an `nnx.jit` function that updates the model in place;
after the step, host code rescales the model's kernel from NumPy and prints it. Trap
for AO103's nnx step: the step must take the model as an argument at every call (a
module read from outside would be a constant of the trace, missing both the updates
and the host writes)."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


@nnx.jit
def decay(model, optimizer, scale):
    grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])


def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.ones(3)
    for i in range(8):
        scale = jnp.cos(x[0]) * 0.5 + 0.5
        total = decay(model, optimizer, scale)
        x = jnp.sin(x) * total + 1.0
        model.kernel.value = np.asarray(model.kernel[...]) * 1.5
        print(i, round(float(jnp.sum(model.kernel[...])), 4))
    return x, model.kernel[...], optimizer.step[...]
