"""Equinox loop; a full-batch loader yields `jax.device_put(xs)` (a device array already)."""

import equinox as eqx
import jax
import jax.numpy as jnp


def full_batch_loader(xs, ys, epochs):
    for _ in range(epochs):
        yield jax.device_put(xs), jax.device_put(ys)


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        pred = jax.vmap(m)(x)[:, 0]
        return jnp.mean((pred - y) ** 2), pred

    (loss, pred), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss, pred - y


def main():
    model = eqx.nn.MLP(2, 1, 6, 1, key=jax.random.PRNGKey(3))
    xs = jax.random.normal(jax.random.PRNGKey(4), (10, 2))
    ys = jnp.tanh(xs[:, 0] - xs[:, 1])
    for x, y in full_batch_loader(xs, ys, 4):
        model, loss, residual = step(model, x, y)  # noqa: RUF059
    return loss
