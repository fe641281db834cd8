"""equinox: the MNIST loop (issue 26). `evaluate(model, loader)`, a function of the
program, runs the model over the loader's batches and also hands the model to the
loader, which keeps it. Trap for AO201 (`donate="all"`): after an evaluation the loader
holds the model's weight; donating `model` at the next step deletes it before the
loader is read after training."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    weight: jax.Array


class Loader:
    def __init__(self, batches):
        self.batches = batches
        self.seen = []

    def __iter__(self):
        return iter(self.batches)

    def watch(self, model):
        self.seen.append(model)


@eqx.filter_jit
def loss(model, x):
    return jnp.sum(model.weight * x)


@eqx.filter_jit
def make_step(model, x):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


def evaluate(model, loader):
    total = 0.0
    for x in loader:
        total += loss(model, x)
    loader.watch(model)
    return total


def train(model, trainloader, testloader):
    for step, x in enumerate(trainloader):
        model = make_step(model, x)
        if step % 2 == 0:
            print(evaluate(model, testloader))
    return model


def main():
    model = Linear(jnp.arange(4.0))
    trainloader = Loader([jnp.ones(4)] * 4)
    testloader = Loader([jnp.full(4, 2.0)])
    model = train(model, trainloader, testloader)
    return model.weight, [jnp.sum(m.weight) for m in testloader.seen]
