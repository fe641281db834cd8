"""flax nnx: an `nnx.ModelAndOptimizer` built with a transformation of the program's own,
whose `init` returns the parameters it is given: the optimizer state holds the model's
arrays. Trap for AO201: donating the model and the optimizer donates them twice."""

import jax.numpy as jnp
import optax
from flax import nnx


def keep_params():
    def init(params):
        return params

    def update(updates, state, params=None):
        return jax_scale(updates), state

    return optax.GradientTransformation(init, update)


def jax_scale(updates):
    return optax.tree_utils.tree_scale(-0.1, updates)


@nnx.jit
def step(model, optimizer, x):
    grads = nnx.grad(lambda m: jnp.sum(m(x) ** 2))(model)
    optimizer.update(grads)


def main():
    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, keep_params())
    x = jnp.ones((2, 3))
    for _ in range(3):
        step(model, optimizer, x)
    return model.kernel[...]
