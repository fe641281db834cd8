"""The buffers inside and between framework objects (issue 26): `make_with_state`'s
pair, an nnx optimizer built from the model passed with it, and a value standing as one
leaf only where its own leaves are distinct."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.aliases import repeated_leaf, scope_sharing
from autoopt.analysis.facts.nnx_optimizers import own_optimizer
from autoopt.analysis.facts.split_makers import made_call

from ..helpers import context

EQX = "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\n"
NNX = "import jax.numpy as jnp\nimport optax\nfrom flax import nnx\n"
UNPROVEN = "cannot prove the leaves of `s` are distinct buffers"
TWICE = "fills two leaves of `s`: one buffer would be donated twice"
TIED_WEIGHTS = (
    "a module class of this file may hold one array in two variables (tied weights), or one "
    "of the caller's"
)


@pytest.mark.parametrize(
    ("call", "made"),
    [
        ("eqx.nn.make_with_state(Model)(key, n=2)", "Model(key, n=2)"),
        ("eqx.nn.make_with_state(eqx.nn.BatchNorm)(3, 'batch')", "eqx.nn.BatchNorm(3, 'batch')"),
        ("eqx.nn.make_with_state(make=Model)(key)", None),  # not the one positional argument
        ("eqx.nn.make_with_state(*makers)(key)", None),
        ("eqx.nn.State(model)", None),
        ("other(Model)(key)", None),
    ],
)
def test_made_call(call: str, made: str | None) -> None:
    ctx = context(f"s = {call}\n", EQX)
    node = ctx.graph.scope_stmts(MODULE)[-1].node.value  # type: ignore[attr-defined]
    found = made_call(ctx, node)
    assert (None if found is None else cst.Module([]).code_for_node(found)) == made
    assert made_call(ctx, node) is found  # one node per call, kept


MODELS = """
class Model(eqx.Module):
    norm: eqx.nn.BatchNorm
    spectral: eqx.nn.SpectralNorm
    up: eqx.nn.ConvTranspose2d

    def __init__(self, key):
        k1, k2, k3 = jax.random.split(key, 3)
        self.norm = eqx.nn.BatchNorm(4, "batch")
        self.spectral = eqx.nn.SpectralNorm(eqx.nn.Linear(4, 4, key=k1), "weight", key=k2)
        self.up = eqx.nn.ConvTranspose2d(1, 1, 2, key=k3)

class Twice(eqx.Module):
    linear: eqx.nn.Linear
    spectral: eqx.nn.SpectralNorm

    def __init__(self, key):
        linear = eqx.nn.Linear(4, 4, key=key)
        self.linear = linear
        self.spectral = eqx.nn.SpectralNorm(linear, "weight", key=key)

class Keeps(eqx.Module):
    w: jax.Array

    def __init__(self, w):
        self.w = w

w = jnp.ones(3)
key = jax.random.key(0)
"""


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("eqx.nn.make_with_state(Model)(key)", None),
        ("eqx.nn.make_with_state(Twice)(key)", (f"`Twice.linear` {TWICE}", True)),
        ("eqx.nn.make_with_state(Keeps)(w)", None),  # `w` once (read later: aliasing's)
        ("[eqx.nn.make_with_state(Keeps)(w), w]", (f"`w` {TWICE}", True)),
        ("eqx.nn.SpectralNorm(eqx.nn.Linear(4, 4, key=key), 'weight', key=key)", None),
        ("eqx.nn.BatchNorm(4, axis_name=w)", None),  # `w` once, as given
        ("(eqx.nn.BatchNorm(4, axis_name=w), w)", (f"`w` {TWICE}", True)),
        ("(eqx.nn.BatchNorm(*sizes), sizes)", (f"`sizes` {TWICE}", True)),
    ],
)
def test_leaves_of_equinox_layers_and_pairs(value: str, why: tuple[str, bool] | None) -> None:
    ctx = context(MODELS + f"s = {value}\nprint(s)\n", EQX)
    assert repeated_leaf(ctx, ctx.graph.scope_stmts(MODULE)[-1], "s") == why


POOLED = """
class CNN(eqx.Module):
    layers: list

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.layers = [
            eqx.nn.Conv2d(1, 3, kernel_size=4, key=k1),
            eqx.nn.MaxPool2d(kernel_size=2),
            jax.nn.relu,
            eqx.nn.Linear(4, 4, key=k2),
        ]

class Tied(eqx.Module):
    layers: list

    def __init__(self, key):
        linear = eqx.nn.Linear(4, 4, key=key)
        self.layers = [linear, eqx.nn.AvgPool2d(2), linear]

class Sized(eqx.Module):
    layers: list

    def __init__(self, size):
        self.layers = [eqx.nn.MaxPool2d(size)]

class MaxPool2d(eqx.Module):
    w: jax.Array

    def __init__(self, w):
        self.w = w

w = jnp.ones(3)
key = jax.random.key(0)
"""


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("CNN(key)", None),  # new buffers and a pooling layer given sizes: no array
        ("[eqx.nn.MaxPool2d(2), eqx.nn.AvgPool1d(2, stride=2, padding=1, use_ceil=True)]", None),
        ("Sized(2)", None),
        ("Tied(key)", (f"`Tied.linear` {TWICE}", True)),  # the pool aside, proven twice
        ("Sized(w)", (f"{UNPROVEN}: {TIED_WEIGHTS} (`Sized`)", False)),  # given an array
        (
            "[eqx.nn.MaxPool2d(2, stride=w), w]",
            (f"{UNPROVEN} (`[eqx.nn.MaxPool2d(2, stride=w), w]`)", False),
        ),
        ("eqx.nn.MaxPool3d(*sizes)", (f"{UNPROVEN} (`eqx.nn.MaxPool3d(*sizes)`)", False)),
        ("[MaxPool2d(w), MaxPool2d(w)]", (f"`w` {TWICE}", True)),  # this file's class
    ],
)
def test_a_pooling_layer_given_no_buffer_holds_no_array(
    value: str, why: tuple[str, bool] | None
) -> None:
    ctx = context(POOLED + f"s = {value}\nprint(s)\n", EQX)
    assert repeated_leaf(ctx, ctx.graph.scope_stmts(MODULE)[-1], "s") == why


def test_a_pair_from_make_with_state_links_nothing_but_what_the_object_holds() -> None:
    ctx = context(
        MODELS + "m, st = eqx.nn.make_with_state(Model)(key)\n"
        "k, ks = eqx.nn.make_with_state(Keeps)(w)\nprint(m, st, k, ks)\n",
        EQX,
    )
    sharing = scope_sharing(ctx, MODULE)
    assert not sharing.may_share("m", "st")
    assert sharing.may_share("k", "ks") and sharing.may_share("k", "w")


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("pair = [w, w]\ns = (pair, 1)", (f"{UNPROVEN} (`(pair, 1)`)", False)),
        ("pair = [w, jnp.zeros(3)]\ns = (pair, 1)", None),
        ("pair = [w, w]\ns = (pair[0], 1)", (f"{UNPROVEN} (`(pair[0], 1)`)", False)),
        ("s = wrap([w, w])", (f"{UNPROVEN} (`wrap([w, w])`)", False)),
        ("s = wrap([w, jnp.zeros(3)])", None),
        ("s = pack(w, w)", (f"{UNPROVEN} (`pack(w, w)`)", False)),
        ("s = first(w, [w, w])", None),  # the list is not returned
        ("s = Holder([w, w])", (f"{UNPROVEN}: {TIED_WEIGHTS} (`Holder`)", False)),
        ("s = (w if flag else jnp.zeros(3), 1)", None),
        (
            "s = ([w, w] if flag else jnp.zeros(3), 1)",
            (f"{UNPROVEN} (`([w, w] if flag else jnp.zeros(3), 1)`)", False),
        ),
    ],
)
def test_a_whole_value_stands_as_one_leaf_only_when_its_leaves_are_distinct(
    value: str, why: tuple[str, bool] | None
) -> None:
    ctx = context(WHOLES + value + "\nprint(s)\n", EQX)
    assert repeated_leaf(ctx, ctx.graph.scope_stmts(MODULE)[-1], "s") == why


WHOLES = """
def wrap(x):
    return (x, 1)

def pack(*xs):
    return xs

def first(a, b):
    return (a, 1)

class Holder(eqx.Module):
    pair: list

    def __init__(self, pair):
        self.pair = pair

w = jnp.ones(3)
flag = w.sum() > 0
"""

OPTIMIZERS = """
@nnx.jit
def step(model, optimizer):
    optimizer.update(model, nnx.grad(lambda m: m.hidden.kernel.sum())(model))

class MLP(nnx.Module):
    def __init__(self, *, rngs):
        self.hidden = nnx.Linear(4, 8, rngs=rngs)

model = MLP(rngs=nnx.Rngs(0))
"""


@pytest.mark.parametrize(
    ("code", "proven"),
    [
        ("optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))", True),
        ("optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)", True),
        ("tx = optax.adam(1e-3)\noptimizer = nnx.ModelAndOptimizer(model, tx=tx)", True),
        ("optimizer = nnx.ModelAndOptimizer(model, make_tx())", False),  # init unknown
        ("optimizer = nnx.ModelAndOptimizer(other, optax.adam(1e-3))", False),
        ("optimizer = nnx.Optimizer(model, optax.adam(1e-3), graph=True)", False),
        ("optimizer = nnx.ModelAndOptimizer(*parts)", False),
        (  # a store links them otherwise
            "optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))\n"
            "optimizer.extra = nnx.Param(model.hidden.kernel[...])",
            False,
        ),
        (  # handed together to code autoopt cannot see
            "optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))\nlog(model, optimizer)",
            False,
        ),
        (  # built again from another model: not the model passed with it
            "optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))\n"
            "model = MLP(rngs=nnx.Rngs(1))",
            False,
        ),
        (  # a notebook builds both again: each optimizer holds the model of its time
            "optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))\n"
            "model = MLP(rngs=nnx.Rngs(1))\n"
            "optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))",
            True,
        ),
    ],
)
def test_own_optimizer(code: str, proven: bool) -> None:
    """Judged for the donation the reader `step(model, optimizer)` makes, which passes
    each variable once (`deduped`). Asked of any other use, the answer is no: the
    `nnx.jit` body may move a variable from one to the other (tests/hazards h1585)."""
    ctx = context(OPTIMIZERS + code + "\nstep(model, optimizer)\n", NNX)
    reader = ctx.graph.scope_stmts(MODULE)[-1]
    assert own_optimizer(ctx, reader, "optimizer", "model", deduped=True) is proven
    assert own_optimizer(ctx, reader, "optimizer", "model") is False
