"""The MNIST notebook's shape (equinox docs): a model whose layers are a list of
equinox layers and JAX functions is first called eagerly on a batch of a type autoopt
cannot know (`batch.numpy()` of what a loader yields), then trained by an
`eqx.filter_jit` step. `eqx.nn.Linear` computes `self.weight @ x`, and a JAX array hands
an operand it does not recognise to that operand's `__rmatmul__`, which here keeps the
weight, the model's very buffer, in the loader. Trap for AO201: an equinox layer is not
proven to keep nothing of an input of unknown type, nor is `.numpy()` proven to give an
array: donating `model` deletes the weight the loader holds, read after every step."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Batch:
    """What the loader yields: no array; `numpy()` gives the batch itself."""

    def __init__(self, loader, data):
        self.loader = loader
        self.data = data

    def numpy(self):
        return self

    def __rmatmul__(self, weight):
        self.loader.seen.append(weight)
        return weight @ self.data


class Loader:
    def __init__(self):
        self.seen = []

    def __iter__(self):
        yield Batch(self, jnp.ones(4))


class Model(eqx.Module):
    layers: list

    def __init__(self, key):
        self.layers = [eqx.nn.Linear(4, 4, key=key), jax.nn.relu, jnp.sum]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


optim = optax.sgd(0.1)


def loss(model, x):
    return model(x)


@eqx.filter_jit
def make_step(model, opt_state, x):
    value, grads = eqx.filter_value_and_grad(loss)(model, x)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, value


def evaluate(loader):
    return [float(w.sum()) for w in loader.seen]


def train(model, loader, steps):
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones(4)
    seen = []
    for _ in range(steps):
        model, opt_state, value = make_step(model, opt_state, x)
        seen.append((value, evaluate(loader)))
    return model, seen


def main():
    model = Model(jax.random.key(0))
    loader = Loader()
    probes = []
    for batch in loader:
        probes.append(loss(model, batch.numpy()))
    model, seen = train(model, loader, 3)
    return probes, seen, model.layers[0].weight
