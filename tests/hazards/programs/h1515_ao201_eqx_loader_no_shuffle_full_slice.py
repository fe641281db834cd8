"""Equinox dataloader with `shuffle=False` for evaluation-style training: slices of the arrays."""

import equinox as eqx
import jax
import jax.numpy as jnp


def dataloader(arrays, batch_size, *, key=None):
    size = arrays[0].shape[0]
    if key is not None:
        perm = jax.random.permutation(key, size)
        arrays = tuple(a[perm] for a in arrays)
    start = 0
    while start < size:
        yield tuple(a[start : start + batch_size] for a in arrays)
        start += batch_size


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        pred = jax.vmap(m)(x)[:, 0]
        return jnp.mean((pred - y) ** 2), pred

    (loss, pred), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads), loss, pred - y


def main():
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))
    xs = jax.random.normal(jax.random.PRNGKey(1), (8, 2))
    ys = xs[:, 0] * 0.5 + xs[:, 1]
    losses = []
    for epoch in range(3):  # noqa: B007
        for x, y in dataloader((xs, ys), 8):
            model, loss, residual = step(model, x, y)  # noqa: RUF059
        losses.append(loss)
    return jnp.stack(losses)
