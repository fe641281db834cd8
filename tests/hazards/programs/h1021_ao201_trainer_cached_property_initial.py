"""A trainer exposes `initial_params` as a `functools.cached_property` that returns
`self.params` the first time it is read (the author reads it once before `fit`, to
"freeze" the starting point). Trap for AO201: the cached value is the parameter buffer;
`self.params = self._step(self.params, x, y)` donating it deletes the cached start, read
by `drift()` after training."""

import functools

import jax
import jax.numpy as jnp


@jax.jit
def sgd(params, x, y):
    g = jax.grad(lambda p: jnp.mean((jnp.tanh(x @ p) - y) ** 2))(params)
    return params - 0.5 * g


class Trainer:
    def __init__(self, params):
        self.params = params

    @functools.cached_property
    def initial_params(self):
        return self.params

    def fit(self, data):
        for x, y in data:
            self.params = sgd(self.params, x, y)

    def drift(self):
        return jnp.linalg.norm(self.params - self.initial_params)


def main():
    xs = jnp.linspace(-1.0, 1.0, 30).reshape(5, 3, 2)
    data = [(x, jnp.sin(x[:, 0])) for x in xs]
    trainer = Trainer(jnp.array([0.3, -0.3]))
    start_norm = jnp.linalg.norm(trainer.initial_params)
    trainer.fit(data)
    return trainer.params, trainer.drift(), start_norm
