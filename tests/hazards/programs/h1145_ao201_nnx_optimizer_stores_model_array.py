"""flax nnx: after building `nnx.ModelAndOptimizer(model, optax.adam(...))` the program
stores the model's kernel array in a variable of the optimizer. Trap for AO201: the
optimizer then holds a buffer of the model through a second variable, and donating both
donates it twice."""

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def step(model, optimizer, x):
    grads = nnx.grad(lambda m: jnp.sum(m(x) ** 2))(model)
    optimizer.update(grads)


def main():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.adam(0.1))
    optimizer.initial = nnx.Variable(model.kernel[...])
    x = jnp.ones((2, 3))
    for _ in range(3):
        step(model, optimizer, x)
    return model.kernel[...], optimizer.initial[...]
