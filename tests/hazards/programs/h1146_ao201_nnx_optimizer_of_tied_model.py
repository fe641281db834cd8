"""flax nnx: a model whose decoder kernel is a second variable holding the encoder
kernel's array (tied weights), wrapped by `nnx.ModelAndOptimizer`; the step takes only
the optimizer. Trap for AO201: donating the optimizer donates the tied array twice."""

import jax.numpy as jnp
import optax
from flax import nnx


class Tied(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.encoder = nnx.Linear(3, 3, rngs=rngs)
        self.decoder = nnx.Linear(3, 3, rngs=rngs)
        self.decoder.kernel = nnx.Param(self.encoder.kernel[...])

    def __call__(self, x):
        return self.decoder(self.encoder(x))


@nnx.jit
def step(optimizer, x):
    grads = nnx.grad(lambda m: jnp.sum(m(x) ** 2))(optimizer.model)
    optimizer.update(grads)


def main():
    model = Tied(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.01))
    x = jnp.ones((2, 3))
    for _ in range(3):
        step(optimizer, x)
    return optimizer.model.encoder.kernel[...], optimizer.model.decoder.kernel[...]
