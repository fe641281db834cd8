"""Trainer class that keeps the initial parameters to reset to them: the first state
holds the very buffers of `self.init_params`. Trap for AO201 on attribute targets (and
for fresh library buffers: `opt.init` is new, `params` is not): donating `self.state`
deletes `self.init_params`, read by `reset()` after training."""

import jax
import jax.numpy as jnp
import optax

opt = optax.sgd(0.1, momentum=0.9)


@jax.jit
def train_step(state, batch):
    params, opt_state = state
    grads = jax.grad(lambda p: jnp.sum((p - batch) ** 2))(params)
    updates, opt_state = opt.update(grads, opt_state, params)
    return (optax.apply_updates(params, updates), opt_state), jnp.sum(grads)


@jax.jit
def measure(state):
    return jnp.sum(state[0])


class Trainer:
    def __init__(self):
        params = jnp.linspace(0.0, 1.0, 4)
        self.init_params = params
        self.state = (params, opt.init(params))

    def fit(self, batches):
        for batch in batches:
            self.state, _ = train_step(self.state, batch)

    def score(self):
        return measure(self.state)

    def reset(self):
        self.state = (self.init_params, opt.init(self.init_params))


def main():
    trainer = Trainer()
    trainer.fit([jnp.ones(4)] * 3)
    trained = trainer.score()
    trainer.reset()
    return trained, trainer.score()
