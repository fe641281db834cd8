"""Self-training: each epoch builds a pseudo-labelling loader from the current model,
`PseudoLabelLoader(xs, params)`; its `__iter__` labels each batch with `self.params` as
it yields it. Trap for AO201: the loader holds the epoch's params; donating `params` to
the step deletes them, and the next batch is labelled with the deleted buffer."""

import jax
import jax.numpy as jnp


@jax.jit
def predict(params, x):
    return jnp.tanh(x @ params)


@jax.jit
def train_step(params, x, y):
    grad = jax.grad(lambda p: jnp.mean((jnp.tanh(x @ p) - y) ** 2))(params)
    return params - 0.5 * grad


class PseudoLabelLoader:
    def __init__(self, xs, params, batch_size=2):
        self.xs = xs
        self.params = params
        self.batch_size = batch_size

    def __iter__(self):
        for start in range(0, self.xs.shape[0], self.batch_size):
            x = self.xs[start : start + self.batch_size]
            yield x, jnp.sign(predict(self.params, x)) * 0.9


def main():
    xs = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    params = jnp.array([[0.3], [-0.2]])
    for _ in range(3):
        loader = PseudoLabelLoader(xs, params)
        for x, y in loader:
            params = train_step(params, x, y)
    return params
