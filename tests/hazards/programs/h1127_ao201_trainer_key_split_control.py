"""Control (for h1126): the trainer splits its key in `__init__` with `jax.random.split`
and keeps none: `self.params` and `self.rng` donated safely, results unchanged."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, rng, x):
    rng, noise_rng = jax.random.split(rng)
    noise = jax.random.normal(noise_rng, x.shape)
    return params - 0.1 * (params - x - noise), rng


class Trainer:
    def __init__(self):
        self.rng = jax.random.PRNGKey(0)
        self.rng, init_rng = jax.random.split(self.rng)
        self.params = jax.random.normal(init_rng, (3,))

    def fit(self, batches):
        for x in batches:
            self.params, self.rng = train_step(self.params, self.rng, x)


def main():
    trainer = Trainer()
    trainer.fit([jnp.ones(3)] * 3)
    return trainer.params, trainer.rng
