"""equinox: a `Trainer(model)` that keeps `jnp.asarray(model.weight)` as the initial
weight for a weight-decay-to-init penalty (`jnp.asarray` of a jax array is the same
array); the loop donates nothing today. Trap for AO201: donating the model deletes the
array the trainer keeps, read after training."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    weight: jax.Array


class Trainer:
    def __init__(self, model):
        self.init_weight = jnp.asarray(model.weight)

    def drift(self, model):
        return jnp.sum((model.weight - self.init_weight) ** 2)


@eqx.filter_jit
def make_step(model, x):
    return Linear(model.weight - 0.05 * (model.weight - x))


def main():
    model = Linear(jnp.zeros(4))
    trainer = Trainer(model)
    x = jnp.arange(4.0)
    for _ in range(5):
        model = make_step(model, x)
    return trainer.drift(model)
