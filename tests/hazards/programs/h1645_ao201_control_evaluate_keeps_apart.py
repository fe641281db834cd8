"""equinox: control (for h1644), the MNIST loop (issue 26). `evaluate(model, loader)`, a
function of the program, hands copies of the loader's batches to code autoopt cannot
see (`copy.copy`), runs a jitted loss over them and hands the model nowhere else: the
loader's code never sees the model, so donating `model` keeps the results."""

import copy

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    weight: jax.Array


class Batch:
    """What a torch loader yields: converted to an array by a method of its own."""

    def __init__(self, value):
        self.value = value

    def numpy(self):
        return jnp.asarray(self.value)


class Loader:
    def __init__(self, batches):
        self.batches = batches
        self.seen = []

    def __iter__(self):
        return iter(self.batches)

    def __len__(self):
        self.seen.append(len(self.batches))
        return len(self.batches)


@eqx.filter_jit
def loss(model, x):
    return jnp.sum(model.weight * x)


@eqx.filter_jit
def make_step(model, x):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


def evaluate(model, loader):
    total = 0.0
    for batch in loader:
        x = copy.copy(batch).numpy()
        total += loss(model, x)
    return total / len(loader)


def train(model, trainloader, testloader):
    for step, x in enumerate(trainloader):
        model = make_step(model, x)
        if step % 2 == 0:
            print(evaluate(model, testloader))
    return model


def main():
    model = Linear(jnp.arange(4.0))
    trainloader = Loader([jnp.ones(4)] * 4)
    testloader = Loader([Batch(jnp.full(4, 2.0))])
    model = train(model, trainloader, testloader)
    return model.weight, testloader.seen
