"""A trainer whose loss is its own method, `self.loss(w, x)`, reading `self.beta`;
`self.on_epoch_end()` increases `beta` after each step of the eager `fit` loop. Trap
for AO103: a jitted step of `jax.grad(self.loss)` keeps the beta of its first trace."""

import jax
import jax.numpy as jnp


class BetaVAETrainer:
    def __init__(self):
        self.beta = 0.0

    def loss(self, mu, x):
        return jnp.sum((mu - x) ** 2) + self.beta * jnp.sum(mu**2)

    def on_epoch_end(self):
        self.beta = self.beta + 0.5

    def fit(self, x, epochs):
        mu = jnp.zeros_like(x)
        for _ in range(epochs):
            g = jax.grad(self.loss)(mu, x)
            mu = mu - 0.1 * g
            self.on_epoch_end()
        return mu


def main():
    return BetaVAETrainer().fit(jnp.array([1.0, -2.0]), 5)
