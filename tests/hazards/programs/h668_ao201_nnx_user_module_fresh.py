"""An nnx module of the program built only from layers drawn from `rngs` and sizes
given as literals, trained in place by an `nnx.jit` step. AO201 may donate it (its
buffers are distinct and nothing else holds them); the results must not change."""

import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, n_in: int = 3, n_hidden: int = 4, *, rngs: nnx.Rngs):
        self.n_in = n_in
        self.layer1 = nnx.Linear(n_in, n_hidden, rngs=rngs)
        self.layer2 = nnx.Linear(n_hidden, 2, rngs=rngs)
        self.scale = nnx.Param(jnp.ones(2))

    def __call__(self, x):
        return self.layer2(nnx.relu(self.layer1(x))) * self.scale


@nnx.jit
def step(model, x):
    grads = nnx.grad(lambda m: jnp.mean(m(x) ** 2))(model)
    params = nnx.state(model, nnx.Param)
    nnx.update(model, jax.tree.map(lambda p, g: p - 0.1 * g, params, grads))


def main():
    model = MLP(rngs=nnx.Rngs(0))
    x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    for _ in range(3):
        step(model, x)
    return model(x), model.scale[...]
