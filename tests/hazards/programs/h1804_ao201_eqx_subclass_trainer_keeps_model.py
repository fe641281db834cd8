"""equinox: a `BaseTrainer` that keeps nothing, and a `RefTrainer(BaseTrainer)` subclass
whose `__init__` override keeps the model (`self.reference = model`); the training loop
is written against the base class's interface. Trap for AO201 (`donate="all"`):
donating the model deletes the reference the subclass keeps."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        return jnp.dot(self.w, x)


class BaseTrainer:
    def __init__(self, model):
        self.lr = 0.1

    def score(self, model):
        return jnp.sum(model.w)


class RefTrainer(BaseTrainer):
    def __init__(self, model):
        super().__init__(model)
        self.reference = model

    def score(self, model):
        return jnp.sum((model.w - self.reference.w) ** 2)


@eqx.filter_jit
def make_step(model, x):
    grads = eqx.filter_grad(lambda m: (m(x) - 1.0) ** 2)(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    model = Model(jnp.array([0.1, 0.2, 0.3]))
    trainer = RefTrainer(model)
    x = jnp.array([1.0, 1.0, 1.0])
    for _ in range(3):
        model = make_step(model, x)
    return trainer.score(model)
