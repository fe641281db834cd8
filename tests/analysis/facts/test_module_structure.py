"""The equinox module class whose `__init__` built an object, or whose structure it keeps."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.module_structure import structure_class

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import equinox as eqx\nimport flax.nnx as nnx\nimport optax\n"
PROGRAM = """
class Decoder(eqx.Module):
    out: eqx.nn.Linear

    def __init__(self, key):
        self.out = eqx.nn.Linear(3, 2, key=key)


class Encoder(eqx.Module):
    out: eqx.nn.Linear

    def __init__(self, key):
        self.out = eqx.nn.Linear(2, 3, key=key)


class Net(nnx.Module):
    def __init__(self, rngs):
        self.out = nnx.Linear(3, 2, rngs=rngs)


optim = optax.adam(1e-3)


@eqx.filter_jit
def make_step(model, opt_state, x):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


@eqx.filter_jit
def given_updates(model, updates):
    return eqx.apply_updates(model, updates)


@eqx.filter_jit
def swap(model, other):
    return other


@eqx.filter_jit
def replaced(model, leaf):
    return eqx.tree_at(lambda m: m.out, model, leaf)


@eqx.filter_jit
def two_orders(model, x):
    if x is None:
        return model, x
    return x, model


@jax.jit
def plain_step(model):
    return model


def train(key, xs, opt_state, given, leaf):
    model = Decoder(key)
    a = model
    for x in xs:
        loss, model, opt_state = make_step(model, opt_state, x)
    b = model
    swapped = Decoder(key)
    swapped = swap(swapped, given)
    d = swapped
    tree = Decoder(key)
    tree = replaced(tree, leaf)
    e = tree
    ordered = Decoder(key)
    ordered, x = two_orders(ordered, xs)
    f = ordered
    jitted = Decoder(key)
    jitted = plain_step(jitted)
    g = jitted
    either = Decoder(key)
    if xs is None:
        either = Encoder(key)
    h = either
    maybe = Decoder(key)
    if xs is None:
        maybe = given
    i = maybe
    net = Net(nnx.Rngs(0))
    j = net
    return a, b, d, e, f, g, h, i, j


def shadowing(key):
    Decoder = Encoder
    model = Decoder(key)
    return model


def holder(key):
    global shared
    shared = Encoder(key)


shared = Decoder(jax.random.key(0))
kept = Decoder(jax.random.key(0))
k = kept
m = shared
"""


def _class(line: str, name: str, scope: str) -> str | None:
    ctx = context(PROGRAM, IMPORTS)
    return structure_class(ctx, stmt(ctx, line, scope), name)


@pytest.mark.parametrize(
    ("line", "name", "scope"),
    [
        ("a = model", "model", "train"),  # built by `Decoder(key)`
        ("b = model", "model", "train"),  # or by the step, from it, in the loop
        ("k = kept", "kept", "<module>"),  # a global nothing else binds
    ],
)
def test_decoder(line: str, name: str, scope: str) -> None:
    assert _class(line, name, scope) == "Decoder"


@pytest.mark.parametrize(
    ("line", "name", "scope"),
    [
        ("d = swapped", "swapped", "train"),  # the step returns another argument
        ("e = tree", "tree", "train"),  # `tree_at` may put anything in a field
        ("f = ordered", "ordered", "train"),  # a return at another position
        ("g = jitted", "jitted", "train"),  # `jax.jit`: not a jit the overlay lists
        ("h = either", "either", "train"),  # two classes
        ("i = maybe", "maybe", "train"),  # a parameter on one path
        ("j = net", "net", "train"),  # an nnx module may be changed by code it is handed
        ("return model", "model", "shadowing"),  # `Decoder` is a local there
        ("m = shared", "shared", "<module>"),  # a function rebinds it through `global`
    ],
)
def test_unknown(line: str, name: str, scope: str) -> None:
    assert _class(line, name, scope) is None


def test_updates_of_objects_are_not_followed() -> None:
    """`apply_updates` given updates not proven arrays: `p + u` may make a leaf anything."""
    program = PROGRAM + "\n\ndef stepped(key, updates):\n"
    program += "    model = given_updates(Decoder(key), updates)\n    return model\n"
    ctx = context(program, IMPORTS)
    assert structure_class(ctx, stmt(ctx, "return model", "stepped"), "model") is None
