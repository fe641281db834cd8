"""An equinox model that stores its input normaliser, `self.mean = data.mean(0)` is new,
but `self.scale = scale` keeps the caller's array, which the loader also yields as its
last batch column. Trap for AO201: `scale` is the caller's; donating the model
(`donate="all"`) deletes it, read after training."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Normed(eqx.Module):
    linear: eqx.nn.Linear
    scale: jax.Array

    def __init__(self, scale, key):
        self.linear = eqx.nn.Linear(2, 1, key=key)
        self.scale = scale

    def __call__(self, x):
        return self.linear(x / self.scale)


@eqx.filter_jit
def step(model, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    x = jnp.array([[1.0, 10.0], [2.0, 20.0], [3.0, 10.0]])
    y = jnp.array([[1.0], [2.0], [2.5]])
    scale = jnp.array([2.0, 20.0])
    model = Normed(scale, jax.random.PRNGKey(0))
    for _ in range(4):
        model = step(model, x, y)
    return model.linear.weight, x / scale
