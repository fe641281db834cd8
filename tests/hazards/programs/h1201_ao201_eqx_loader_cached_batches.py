"""A loader that caches its shuffled batches the first epoch and yields the cached
arrays again every later epoch (a common speed-up for small datasets). Trap for AO201:
the generator does not yield new buffers every iteration; donating the batch to
`eqx.filter_jit` deletes the cached arrays the second epoch yields again."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

_CACHE = {}


def loader(xs, ys, batch_size, seed):
    if not _CACHE:
        order = np.random.default_rng(seed).permutation(xs.shape[0])
        for b, start in enumerate(range(0, xs.shape[0], batch_size)):
            idx = order[start : start + batch_size]
            _CACHE[b] = (xs[idx], ys[idx])
    for b in sorted(_CACHE):
        yield _CACHE[b]


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    model = jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)
    return model, loss


def main():
    xs = jnp.arange(40.0).reshape(20, 2) / 20.0
    ys = jnp.sin(xs[:, :1]) + xs[:, 1:]
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(1))
    total = 0.0
    for _ in range(3):
        for x, y in loader(xs, ys, 8, seed=3):
            model, loss = step(model, x, y)
            total += loss
    return total, model.bias
