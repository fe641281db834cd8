"""The data loader is a class: `RegularizedLoader(xs, ys, prior=params)` stores the
initial parameters as the prior it attaches to every batch. Trap for AO201: the first
`params = step(params, batch)` passes the parameter buffer twice (as `params` and
inside the batch); donating `params` deletes the prior the later batches carry."""

import jax
import jax.numpy as jnp


class RegularizedLoader:
    def __init__(self, xs, ys, prior, batch_size):
        self.xs, self.ys, self.prior, self.batch_size = xs, ys, prior, batch_size

    def __iter__(self):
        for i in range(0, self.xs.shape[0], self.batch_size):
            yield {
                "x": self.xs[i : i + self.batch_size],
                "y": self.ys[i : i + self.batch_size],
                "prior": self.prior,
            }


@jax.jit
def step(params, batch):
    def loss(w):
        fit = jnp.mean((batch["x"] @ w - batch["y"]) ** 2)
        return fit + 0.1 * jnp.sum((w - batch["prior"]) ** 2)

    return params - 0.2 * jax.grad(loss)(params)


def main():
    xs = jnp.linspace(-2.0, 2.0, 24).reshape(8, 3)
    ys = xs @ jnp.array([0.5, 1.0, -1.0])
    params = jnp.array([0.1, 0.2, 0.3])
    loader = RegularizedLoader(xs, ys, prior=params, batch_size=2)
    for epoch in range(2):  # noqa: B007
        for batch in loader:
            params = step(params, batch)
    return params
