"""AO201 on trainer classes and library-built state: the rewritten programs compute the
same numbers, and the donated buffers are really given to XLA."""

from __future__ import annotations

import jax.numpy as jnp
import pytest

from autoopt.model import Applicability
from tests.rules.helpers import assert_same, rewrite, run_snippet

TRAINER = """
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, size, lr=0.1):
        self.opt = optax.adam(lr)
        self.make_steps()
        params = {"w": jnp.linspace(0.0, 1.0, size)}
        self.state = (params, self.opt.init(params))

    def make_steps(self):
        def train_step(state, batch):
            params, opt_state = state
            loss, grads = jax.value_and_grad(lambda p: jnp.sum((p["w"] * batch) ** 2))(params)
            updates, opt_state = self.opt.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), loss

        def loss(state, batch):
            return jnp.sum((state[0]["w"] * batch) ** 2)

        self.train_step = jax.jit(train_step)
        self.loss = jax.jit(loss)

    def evaluate(self, batch):
        return self.loss(self.state, batch)

    def fit(self, batches):
        losses = []
        for batch in batches:
            self.state, loss = self.train_step(self.state, batch)
            losses.append(loss)
        return losses


def main():
    trainer = Trainer(5)
    losses = trainer.fit([jnp.full(5, 0.5 + i) for i in range(6)])
    return losses, trainer.evaluate(jnp.ones(5))
"""

HAIKU = """
import haiku as hk
import jax
import jax.numpy as jnp
import optax

net = hk.transform(lambda x: hk.Linear(3)(x))
opt = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1, momentum=0.9))


@jax.jit
def update(params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum(net.apply(p, None, x) ** 2))(params)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main():
    x = jnp.arange(8.0).reshape(2, 4)
    params = net.init(jax.random.key(0), x)
    opt_state = opt.init(params)
    for _ in range(5):
        params, opt_state = update(params, opt_state, x)
    return params, opt_state
"""

LINEN = """
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.relu(nn.Dense(4)(x)))


@jax.jit
def step(state, x):
    grads = jax.grad(lambda p: jnp.sum(state.apply_fn({"params": p}, x) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


def main():
    x = jnp.arange(6.0).reshape(2, 3)
    model = MLP()
    params = model.init(jax.random.key(1), x)["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(0.01))
    for _ in range(4):
        state = step(state, x)
    return state.params, state.opt_state
"""

EQUINOX = """
import equinox as eqx
import jax
import jax.numpy as jnp


@jax.jit
def step(model, x):
    grads = jax.grad(lambda m: jnp.sum(m[1](jnp.tanh(m[0](x))) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    x = jnp.arange(3.0)
    k1, k2 = jax.random.split(jax.random.key(0))
    model = (eqx.nn.Linear(3, 8, key=k1), eqx.nn.Linear(8, 2, key=k2))
    for _ in range(4):
        model = step(model, x)
    return model[0].weight, model[1].bias
"""


# a linen trainer as the uvadlc notebooks write it: read from outside (and through a
# method that keeps `self.state`) only after its last step
TRAINER_MODULE = """
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(16)(x)))


class TrainerModule:
    def __init__(self, lr):
        self.model = MLP()
        self.lr = lr
        self.create_functions()
        self.init_model()

    def create_functions(self):
        def loss_fn(params, batch):
            x, y = batch
            return jnp.mean((self.model.apply({"params": params}, x) - y) ** 2)

        def train_step(state, batch):
            loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
            return state.apply_gradients(grads=grads), loss

        def eval_step(state, batch):
            return loss_fn(state.params, batch)

        self.train_step = jax.jit(train_step)
        self.eval_step = jax.jit(eval_step)

    def init_model(self):
        params = self.model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.adam(self.lr)
        )

    def train_model(self, batches, epochs):
        losses = []
        for _ in range(epochs):
            for batch in batches:
                self.state, loss = self.train_step(self.state, batch)
                losses.append(loss)
        return losses

    def save(self, store):
        store.append(self.state.params)

    def eval_model(self, batches):
        return sum(float(self.eval_step(self.state, b)) for b in batches) / len(batches)


def make_batches():
    rng = np.random.default_rng(0)
    out = []
    for _ in range(4):
        x = rng.normal(size=(8, 4)).astype(np.float32)
        out.append((x, x.sum(axis=1, keepdims=True)))
    return out


def main():
    trainer = TrainerModule(1e-2)
    batches = make_batches()
    losses = trainer.train_model(batches, 5)
    result = trainer.eval_model(batches)
    params = jax.tree_util.tree_map(np.asarray, trainer.state.params)
    store = []
    trainer.save(store)
    return result, [float(v) for v in losses], params, store

"""


# a flow as the uvadlc tutorial 11 builds it: a factory assembles it from a list of
# layers (one a subclass with flows of its own), handed to a trainer that initialises it
FLOW_TRAINER = """
from typing import Sequence

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
            loss_fn = lambda params: self.model.apply({"params": params}, batch)
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
    trainer, losses = train_flow(create_flow())
    params = jax.tree.map(jnp.sum, trainer.state.params)
    return [float(v) for v in losses], params, jnp.sum(trainer.exmp)

"""


@pytest.mark.parametrize(
    ("source", "donated"),
    [
        (TRAINER, '("state",)'),
        (HAIKU, '("params", "opt_state")'),
        (LINEN, '("state",)'),
        (EQUINOX, '("model",)'),
        (TRAINER_MODULE, '("state",)'),
    ],
    ids=["trainer-class", "haiku-optax", "linen-trainstate", "equinox-layer", "trainer-module"],
)
def test_donation_is_safe_and_keeps_the_numbers(source: str, donated: str) -> None:
    result = rewrite(source, rules=("AO201",))
    assert [f.fix for f in result.findings] == [Applicability.SAFE]
    assert f"donate_argnames={donated}" in result.new_source
    after = run_snippet(result.new_source + "\nresult = main()\n")
    assert_same(run_snippet(source + "\nresult = main()\n"), after)


def test_the_trainer_s_old_state_is_donated() -> None:
    """After a rewritten step the previous `self.state`'s buffers are deleted: XLA took
    them (nothing else held them, which is what AO201 proved)."""
    source = rewrite(TRAINER, rules=("AO201",)).new_source
    namespace: dict[str, object] = {"__name__": "snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    trainer = namespace["Trainer"](3)  # type: ignore[operator]
    old = trainer.state[0]["w"]
    trainer.fit([jnp.ones(3)])
    assert old.is_deleted() and not trainer.state[0]["w"].is_deleted()
    unchanged = namespace.copy()
    exec(compile(TRAINER, "<snippet>", "exec"), unchanged)
    kept = unchanged["Trainer"](3)  # type: ignore[operator]
    before = kept.state[0]["w"]
    kept.fit([jnp.ones(3)])
    assert not before.is_deleted()  # the original program keeps it


def test_a_flow_from_a_factory_is_donated() -> None:
    """`init` of the assembled flow makes new buffers (tests/hazards h1294 runs it: the
    results are unchanged)."""
    result = rewrite(FLOW_TRAINER, rules=("AO201",))
    assert [f.fix for f in result.findings] == [Applicability.SAFE]
    assert 'self.train_step = jax.jit(train_step, donate_argnames=("state",))' in result.new_source


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        (  # the flow's list changed before the trainer initialises it
            "    trainer = TrainerModule(flow)",
            "    flow.flows.append(Net(3))\n    trainer = TrainerModule(flow)",
            98,
        ),
        (  # the trainer hands its model to code autoopt does not follow
            "        self.lr = lr\n",
            "        self.lr = lr\n        print(self.model)\n",
            99,
        ),
        (  # a subclass's own `init`
            "    model = Flow(layers)",
            "    model = Own(layers)",
            98,
        ),
    ],
    ids=["list-appended", "model-handed-on", "own-init"],
)
def test_a_flow_changed_or_handed_on_is_not_proven_new_buffers(
    old: str, new: str, line: int
) -> None:
    own = (
        "class Own(Flow):\n    def init(self, *args):\n        return {}\n\n\nclass TrainerModule:"
    )
    source = FLOW_TRAINER.replace(old, new).replace("class TrainerModule:", own)
    (finding,) = rewrite(source, rules=("AO201",)).findings
    assert finding.fix is Applicability.UNSAFE
    assert finding.message.endswith(
        f"unsafe: the value stored in `self.state` at line {line} may be held by another"
        " attribute of `self` too (`self.model`, `self.exmp`): `self.model.init(jax.random."
        "PRNGKey(0), self.exmp)` is not proven to make new buffers"
    )
