"""A trainer records its starting key in a module list before training. Trap for AO201
on a trainer's `self.rng` (`jax.random.split` keeps nothing, but the list does): donating
`self.rng` deletes the key the list holds, read after training."""

import jax
import jax.numpy as jnp

KEYS = []


@jax.jit
def train_step(params, rng, x):
    rng, noise_rng = jax.random.split(rng)
    noise = jax.random.normal(noise_rng, x.shape)
    return params - 0.1 * (params - x - noise), rng


class Trainer:
    def __init__(self):
        self.rng = jax.random.PRNGKey(0)
        self.rng, init_rng = jax.random.split(self.rng)
        KEYS.append(self.rng)
        self.params = jax.random.normal(init_rng, (3,))

    def fit(self, batches):
        for x in batches:
            self.params, self.rng = train_step(self.params, self.rng, x)


def main():
    trainer = Trainer()
    trainer.fit([jnp.ones(3)] * 3)
    return trainer.params, KEYS[0]
