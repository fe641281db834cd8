"""Equinox loop; predictions made by the step are handed to a plotting buffer, then batches
reused.
"""

import equinox as eqx
import jax
import jax.numpy as jnp

PLOTS = []


def plot_predictions(preds, target):
    PLOTS.append((preds, target))


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        pred = jax.vmap(m)(x)[:, 0]
        return jnp.mean((pred - y) ** 2), pred

    (loss, pred), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads), pred, loss


def main():
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(4))
    x = jax.random.normal(jax.random.PRNGKey(5), (6, 2))
    y = x[:, 0] * 2.0
    for i in range(4):  # noqa: B007
        model, pred, loss = step(model, x, y)
        plot_predictions(pred, y)
    return loss, [float(jnp.mean((p - t) ** 2)) for p, t in PLOTS]
