"""A loader that yields basic slices `array[start:end]` (issue 26): with one batch per
epoch the slice `array[0:8]` of an 8-row array is the array itself in JAX. Trap for
AO201 (`donate="all"`): donating the batch deletes the dataset the next epoch reads."""

import equinox as eqx
import jax.numpy as jnp


def batches(arrays, size):
    n = arrays[0].shape[0]
    while True:
        for start in range(0, n, size):
            yield tuple(array[start : start + size] for array in arrays)


@eqx.filter_jit
def make_step(model, x, y):
    pred = x @ model
    loss = jnp.mean((pred - y) ** 2)
    return model - 0.01 * loss, pred, loss


def main():
    xs = jnp.arange(32.0).reshape(8, 4) / 32.0
    ys = jnp.ones((8, 4))
    model = jnp.eye(4)
    losses = []
    for _, (x, y) in zip(range(3), batches((xs, ys), 8), strict=False):
        model, pred, loss = make_step(model, x, y)
        losses.append((loss, pred.sum()))
    return model, losses
