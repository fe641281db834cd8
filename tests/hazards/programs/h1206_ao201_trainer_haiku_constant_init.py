"""A trainer given a haiku model whose layer is initialised with
`hk.initializers.Constant(PRETRAINED)`. Haiku's Constant returns the very array when
its shape and dtype already match, so `init` puts the global `PRETRAINED` in the
params. Trap for AO201: donating `self.params` deletes `PRETRAINED`, read after
training to measure the fine-tuning drift."""

import haiku as hk
import jax
import jax.numpy as jnp

PRETRAINED = jnp.array([[0.2, -0.1], [0.4, 0.3], [-0.5, 0.1]])


def net_fn(x):
    return hk.Linear(2, w_init=hk.initializers.Constant(PRETRAINED))(x)


class Trainer:
    def __init__(self, model, sample):
        self.model = model
        self.params = model.init(jax.random.PRNGKey(0), sample)
        self.update = jax.jit(self._update)

    def _update(self, params, x, y):
        def loss_fn(p):
            return jnp.mean((self.model.apply(p, x) - y) ** 2)

        grads = jax.grad(loss_fn)(params)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

    def fit(self, x, y, steps):
        for _ in range(steps):
            self.params = self.update(self.params, x, y)


def main():
    x = jnp.arange(12.0).reshape(4, 3) / 12.0
    y = jnp.ones((4, 2))
    trainer = Trainer(hk.without_apply_rng(hk.transform(net_fn)), x)
    trainer.fit(x, y, 5)
    drift = jnp.abs(trainer.params["linear"]["w"] - PRETRAINED).sum()
    return drift, trainer.params["linear"]["b"]
