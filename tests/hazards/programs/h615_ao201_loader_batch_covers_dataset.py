"""An equinox training script with the tutorial-style data loader that slices
`array[start:end]`; the batch size is larger than the small dataset, so every batch is
`xs[0:len(xs)]`, which JAX returns as `xs` itself. Trap for AO201: the loader's batches
are not new buffers; donating them (`donate="all"`) deletes the dataset evaluated after
training."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def dataloader(xs, ys, batch_size):
    n = xs.shape[0]
    for start in range(0, n, batch_size):
        yield xs[start : start + batch_size], ys[start : start + batch_size]


OPT = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    value, grads = eqx.filter_value_and_grad(loss)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, value


def main():
    xs = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    ys = xs @ jnp.array([[1.0], [-1.0]])
    model = eqx.nn.Linear(2, 1, key=jax.random.key(0))
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    for _ in range(4):
        for x, y in dataloader(xs, ys, 32):
            model, opt_state, value = make_step(model, opt_state, x, y)
    final = jnp.mean((jax.vmap(model)(xs) - ys) ** 2)
    print("final", round(float(final), 6))
    return model.weight, value
