"""A factory returns an object, not a linen module, whose `init` returns its input inside
the dict, as a linen module's would return new parameters. Trap for AO201 on the
trainer's `self.state` (only a linen module's `init` makes new buffers): the state's
params hold the trainer's `self.exmp`, which donating `self.state` deletes."""

from collections.abc import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class Net(nn.Module):
    c_out: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.c_out)(x)


class Coupling(nn.Module):
    network: nn.Module
    mask: jnp.ndarray
    c_in: int

    def setup(self):
        self.scale = self.param("scale", nn.initializers.zeros, (self.c_in,))

    def __call__(self, z):
        return z + (1 - self.mask) * self.network(z * self.mask) * jnp.exp(self.scale)


class Dequant(nn.Module):
    quants: int = 4

    def __call__(self, z):
        return self.dequant(z)

    def dequant(self, z):
        return z / self.quants


class VarDequant(Dequant):
    var_flows: Sequence[nn.Module] = None

    def dequant(self, z):
        if self.var_flows is not None:
            for flow in self.var_flows:
                z = flow(z)
        return z / self.quants


class Flow(nn.Module):
    flows: Sequence[nn.Module]

    def __call__(self, x):
        for flow in self.flows:
            x = flow(x)
        return jnp.mean(x**2)


def make_mask(n, invert):
    mask = jnp.arange(n) % 2
    return 1 - mask if invert else mask


class Table:
    def init(self, key, x):
        return {"params": {"w": x}}

    def apply(self, variables, x):
        return jnp.mean((variables["params"]["w"] * x) ** 2)


def create_table():
    table = Table()
    return table


def create_flow():
    layers = []
    var = [Coupling(network=Net(3), mask=make_mask(3, i % 2 == 1), c_in=3) for i in range(2)]
    layers += [VarDequant(var_flows=var)]
    for i in range(2):
        layers += [Coupling(network=Net(3), mask=make_mask(3, i % 2 == 0), c_in=3)]
    model = Flow(layers)
    return model


class TrainerModule:
    def __init__(self, flow, lr=0.1):
        self.model = flow
        self.lr = lr
        self.exmp = jnp.ones((2, 3))
        self.create_functions()
        self.init_model()

    def create_functions(self):
        def train_step(state, batch):
            def loss_fn(params):
                return self.model.apply({"params": params}, batch)

            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), loss

        self.train_step = jax.jit(train_step)

    def init_model(self):
        params = self.model.init(jax.random.PRNGKey(0), self.exmp)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(self.lr)
        )

    def train_model(self, batches):
        losses = []
        for batch in batches:
            self.state, loss = self.train_step(self.state, batch)
            losses.append(loss)
        return losses


def train_flow(flow):
    trainer = TrainerModule(flow)
    losses = trainer.train_model([jnp.ones((2, 3)) * i for i in range(3)])
    return trainer, losses


def main():
    trainer, losses = train_flow(create_table())
    params = jax.tree.map(jnp.sum, trainer.state.params)
    return [float(v) for v in losses], params, jnp.sum(trainer.exmp)
