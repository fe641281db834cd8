"""Calls of a method of an object of a class of the module returning new buffers only."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.aliases import scope_sharing
from autoopt.analysis.facts.method_results import fresh_method_result

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import equinox as eqx\nimport flax.nnx as nnx\n"
PROGRAM = """
def keep(x):
    return HELD


class Decoder(eqx.Module):
    out: eqx.nn.Linear
    mlp: eqx.nn.MLP
    held: eqx.nn.MLP
    weight: jax.Array

    def __init__(self, key):
        self.out = eqx.nn.Linear(3, 2, key=key)
        self.mlp = eqx.nn.MLP(3, 2, 4, 1, activation=jax.nn.softplus, key=key)
        self.held = eqx.nn.MLP(3, "scalar", 4, 1, final_activation=keep, key=key)
        self.weight = jnp.ones(3)

    def sample(self, xs):
        return self._decode(xs)

    def _decode(self, xs):
        return jax.vmap(self.out, in_axes=0)(xs)

    def direct(self):
        return self.mlp(jnp.ones(3))

    def nothing(self, xs):
        if xs is None:
            return
        return self.sample(xs)

    def weight_of(self):
        return self.weight

    def echo(self, xs):
        return xs

    def identity_map(self, xs):
        return jax.vmap(lambda x: x)(xs)

    def captured_map(self, xs):
        return jax.vmap(lambda x: self.weight)(xs)

    def held_map(self, xs):
        return jax.vmap(self.held)(xs)

    def unbatched(self, xs):
        return jax.vmap(self.out, out_axes=None)(xs)

    def direct_any(self, x):
        return self.mlp(x)

    def stash(self, xs):
        y = jax.vmap(self.out)(xs)
        self.log.append(y)
        return y

    def rebinds(self, xs, other):
        self = other
        return self._decode(xs)

    def through_weight(self, xs):
        return self.weight_of()

    @property
    def made(self):
        return self.out(jnp.ones(3))


class Sub(Decoder):
    def _decode(self, xs):
        return self.weight


class Net(nnx.Module):
    def __init__(self, rngs):
        self.out = nnx.Linear(3, 2, rngs=rngs)

    def sample(self, xs):
        return jax.vmap(self.out)(xs)


def main(key, xs, given, unknown):
    model = Decoder(key)
    a = model.sample(xs)
    b = model.direct()
    c = model.nothing(xs)
    d = model.weight_of()
    e = model.echo(xs)
    f = model.identity_map(xs)
    g = model.captured_map(xs)
    h = model.held_map(xs)
    i = model.unbatched(xs)
    j = model.direct_any(xs)
    k = model.stash(xs)
    m = model.rebinds(xs, given)
    n = model.through_weight(xs)
    o = model.made
    sub = Sub(key)
    p = sub.sample(xs)
    q = given.sample(xs)
    r = unknown().sample(xs)
    other = eqx.tree_at(lambda t: t.out, model, given)
    s = other.sample(xs)
    net = Net(nnx.Rngs(0))
    t = net.sample(xs)
    if xs is None:
        model = given
    u = model.sample(xs)
    return a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u
"""


def _verdict(line: str) -> bool:
    ctx = context(PROGRAM, IMPORTS)
    found = stmt(ctx, line, "main")
    node = found.node
    assert type(node) is cst.Assign and type(node.value) is cst.Call
    return fresh_method_result(ctx, found, node.value)


@pytest.mark.parametrize(
    "line",
    [
        "a = model.sample(xs)",  # through `self._decode`, a vmap of a `Linear` field
        "b = model.direct()",  # an `MLP` field of JAX activations, given an array
        "c = model.nothing(xs)",  # a bare `return` gives None
    ],
)
def test_fresh(line: str) -> None:
    assert _verdict(line)


@pytest.mark.parametrize(
    "line",
    [
        "d = model.weight_of()",  # a leaf of the object
        "e = model.echo(xs)",  # an argument
        "f = model.identity_map(xs)",  # `jax.vmap(lambda x: x)(xs)` is `xs`
        "g = model.captured_map(xs)",  # a function of the program's, returning a leaf
        "h = model.held_map(xs)",  # an `MLP` given an activation of the program's
        "i = model.unbatched(xs)",  # `out_axes=None`: an option left out of FRESH_MAPS
        "j = model.direct_any(xs)",  # a layer given a value not proven an array
        "k = model.stash(xs)",  # the result is also stored on the object
        "m = model.rebinds(xs, given)",  # `self` bound to another object
        "n = model.through_weight(xs)",  # a method of the class returning a leaf
        "p = sub.sample(xs)",  # a subclass overriding `_decode`
        "q = given.sample(xs)",  # a parameter: its class unknown
        "r = unknown().sample(xs)",  # an attribute call on an unknown object
        "s = other.sample(xs)",  # `tree_at` builds without `__init__`: any field
        "t = net.sample(xs)",  # an nnx module: code it is handed may change it
        "u = model.sample(xs)",  # bound to something else on one path
    ],
)
def test_not_fresh(line: str) -> None:
    assert not _verdict(line)


def test_a_property_is_no_call() -> None:
    ctx = context(PROGRAM, IMPORTS)
    found = stmt(ctx, "o = model.made", "main")
    assert type(found.node) is cst.Assign and type(found.node.value) is not cst.Call


def test_a_method_stored_by_name_is_not_followed() -> None:
    """An attribute of the method's name stored anywhere may hide it on the instance."""
    program = PROGRAM.replace("    return a, b,", "    model.sample = keep\n    return a, b,")
    ctx = context(program, IMPORTS)
    found = stmt(ctx, "a = model.sample(xs)", "main")
    assert not fresh_method_result(ctx, found, found.node.value)  # type: ignore[attr-defined]


def test_sharing_unlinks_a_fresh_result_only() -> None:
    ctx = context(PROGRAM, IMPORTS)
    sharing = scope_sharing(ctx, "main")
    assert not sharing.may_share("a", "model") and not sharing.may_share("a", "xs")
    assert sharing.may_share("d", "model") and sharing.may_share("e", "xs")


STEP = """
SEEN = []
optim = optax.sgd(0.1)


class Decoder(eqx.Module):
    out: eqx.nn.Linear

    def __init__(self, key):
        self.out = eqx.nn.Linear(4, 2, key=key)

    def sample(self, ts):
        return jax.vmap(self.out)(ts)

    def logged(self, ts):
        SEEN.append(ts)
        return jax.vmap(self.out)(ts)


@eqx.filter_jit
def make_step(model, opt_state, x):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


def train(key, xs, opt_state):
    model = Decoder(key)
    ts, us = jnp.ones((2, 4)), jnp.zeros((2, 4))
    for x in xs:
        loss, model, opt_state = make_step(model, opt_state, x)
        a = model.sample(ts)
        b = model.logged(us)
    return a, b
"""


def test_a_method_of_an_object_a_step_rebuilt() -> None:
    """`model` is the `Decoder` built, or the step's output from it: `sample` gives new
    buffers and keeps nothing (given arrays); `logged` gives new buffers but keeps its
    argument, which the relation links to the object."""
    ctx = context(STEP, IMPORTS + "import optax\n")
    found = stmt(ctx, "a = model.sample(ts)", "train")
    assert fresh_method_result(ctx, found, found.node.value)  # type: ignore[attr-defined]
    sharing = scope_sharing(ctx, "train")
    assert not sharing.may_share("a", "model") and not sharing.may_share("b", "model")
    assert not sharing.may_share("ts", "model") and sharing.may_share("us", "model")
    # `logged` is the class's code, which may keep `us` anywhere, not only in `model`
    assert sharing.retained_by({"us"}) == "is handed to `model.logged`, which may keep it"
