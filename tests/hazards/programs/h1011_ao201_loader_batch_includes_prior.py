"""Bayesian-flavoured regression: the data loader yields `(x, y, prior_mean)` with the
prior taken from the initial parameters when the loader is built ("the prior is part of
the data"). Trap for AO201: the first step receives the parameter buffer both as
`params` and inside the batch; donating `params` deletes the prior every later batch
still carries."""

import jax
import jax.numpy as jnp


def make_loader(xs, ys, prior_mean, batch):
    def loader():
        for i in range(0, xs.shape[0], batch):
            yield xs[i : i + batch], ys[i : i + batch], prior_mean

    return loader


@jax.jit
def map_step(params, batch):
    x, y, prior = batch

    def neg_log_post(w):
        return jnp.mean((x @ w - y) ** 2) + 0.05 * jnp.sum((w - prior) ** 2)

    return params - 0.2 * jax.grad(neg_log_post)(params)


def main():
    xs = jnp.linspace(-1.0, 1.0, 32).reshape(16, 2)
    ys = xs @ jnp.array([1.5, -0.5])
    params = jnp.array([0.2, 0.2])
    loader = make_loader(xs, ys, params, 4)
    for epoch in range(3):  # noqa: B007
        for batch in loader():
            params = map_step(params, batch)
    return params
