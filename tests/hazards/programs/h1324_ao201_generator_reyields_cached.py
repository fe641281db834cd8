"""A generator that gathers its batches once, caches them, and yields the cached
arrays again in later epochs (issue 26). Trap for AO201 (`donate="all"`): donating a
batch deletes the cached array the next epoch yields."""

import equinox as eqx
import jax.numpy as jnp


def epochs(arrays, size, count):
    cache = []
    for start in range(0, arrays[0].shape[0], size):
        index = jnp.arange(start, start + size)
        batch = tuple(array[index] for array in arrays)
        cache.append(batch)
    for _ in range(count):
        for batch in cache:
            yield batch


@eqx.filter_jit
def make_step(model, x, y):
    residual = x * model - y
    loss = jnp.mean(residual**2)
    return model - 0.01 * loss, residual, loss


def main():
    xs = jnp.arange(8.0)
    ys = 2.0 * xs
    model = jnp.float32(1.0)
    losses = []
    for x, y in epochs((xs, ys), 4, 2):
        model, residual, loss = make_step(model, x, y)
        losses.append((loss, residual.sum()))
    return model, losses
