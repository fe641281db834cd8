"""Equinox loop over a generator that yields `xs.astype(jnp.float32)`: already float32."""

import equinox as eqx
import jax
import jax.numpy as jnp


def batches(xs, ys, batch_size):
    n = xs.shape[0]
    for start in range(0, n, batch_size):
        end = start + batch_size
        yield xs[start:end].astype(jnp.float32), ys[start:end].astype(jnp.float32)


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        pred = jax.vmap(m)(x)[:, 0]
        return jnp.mean((pred - y) ** 2), pred

    (loss, pred), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model)
    model = jax.tree.map(lambda p, g: p - 0.05 * g, model, grads)
    return model, loss, pred - y


def main():
    model = eqx.nn.Linear(3, 1, key=jax.random.PRNGKey(0))
    xs = jax.random.normal(jax.random.PRNGKey(1), (12, 3))
    ys = xs @ jnp.array([1.0, -1.0, 2.0])
    losses = []
    for epoch in range(3):  # noqa: B007
        for x, y in batches(xs, ys, 16):
            model, loss, residual = step(model, x, y)  # noqa: RUF059
            losses.append(loss)
    return jnp.stack(losses)
