"""Equinox loop; a logging helper keeps the model it is given to plot predictions later."""

import equinox as eqx
import jax
import jax.numpy as jnp


class PredictionLogger:
    def __init__(self, xs):
        self.xs = xs
        self.models = []

    def log(self, model):
        self.models.append(model)

    def curves(self):
        return jnp.stack([jax.vmap(m)(self.xs)[:, 0] for m in self.models])


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x)[:, 0] - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss


def main():
    model = eqx.nn.MLP(1, 1, 8, 2, key=jax.random.PRNGKey(0))
    x = jnp.linspace(-1, 1, 12)[:, None]
    y = jnp.sin(3 * x[:, 0])
    logger = PredictionLogger(x)
    for i in range(6):
        model, loss = step(model, x, y)
        if i % 2 == 0:
            logger.log(model)
    return loss, logger.curves()
