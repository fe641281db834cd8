"""Control (for h1320-h1324, issue 26): a loader in the style of diffrax's examples
gathers each batch with a permutation (`array[perm[start:end]]`, new buffers) from a
tuple of arrays joined with `+`. The model, its optimizer state and the batch are
donated safely; results unchanged."""

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


def dataloader(arrays, batch_size, *, key):
    dataset_size = arrays[0].shape[0]
    indices = jnp.arange(dataset_size)
    while True:
        perm = jr.permutation(key, indices)
        (key,) = jr.split(key, 1)
        start = 0
        end = batch_size
        while end <= dataset_size:
            batch_perm = perm[start:end]
            yield tuple(array[batch_perm] for array in arrays)
            start = end
            end = start + batch_size


def main():
    key = jr.PRNGKey(0)
    ts = jnp.linspace(0.0, 1.0, 32).reshape(8, 4)
    ys = jnp.sin(ts)
    extra = (jnp.cos(ts),)
    model = eqx.nn.Linear(4, 4, key=key)

    @eqx.filter_jit
    def make_step(model, data_i):
        ti, yi, zi = data_i

        def loss(m):
            return jnp.mean((jax.vmap(m)(ti) - yi - zi) ** 2)

        value, grads = eqx.filter_value_and_grad(loss)(model)
        model = jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)
        return value, model

    values = []
    for _, data_i in zip(range(6), dataloader((ts, ys) + extra, 4, key=key), strict=False):  # noqa: RUF005
        value, model = make_step(model, data_i)
        values.append(value)
    return model.weight, values, ts, ys
