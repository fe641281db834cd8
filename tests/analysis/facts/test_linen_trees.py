"""Linen modules assembled from others (`facts/linen_trees.py`) and the custody of the
lists they hold (`facts/module_custody.py`), as `fresh_result` reads `init` on them."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.fresh import fresh_result

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import flax.linen as nn\nfrom typing import Sequence\n"
PROGRAM = """
TABLE = jnp.ones((3, 3))


class Net(nn.Module):
    c_out: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.c_out)(x)


class Coupling(nn.Module):
    network: nn.Module
    mask: object
    c_in: int

    def setup(self):
        self.scale = self.param("scale", nn.initializers.zeros, (self.c_in,))

    def __call__(self, z):
        return z * self.mask + self.network(z) * jnp.exp(self.scale)


class Base(nn.Module):
    quants: int = 4

    def __call__(self, z):
        return self.dequant(z)

    def dequant(self, z):
        return z / self.quants


class Variational(Base):
    var_flows: Sequence[nn.Module] = None

    def dequant(self, z):
        if self.var_flows is not None:
            for flow in self.var_flows:
                z = flow(z)
        return z


class Flow(nn.Module):
    flows: Sequence[nn.Module]

    def __call__(self, x):
        for flow in self.flows:
            x = flow(x)
        return x

    def sample(self, z):
        for flow in reversed(self.flows):
            z = flow(z)
        return z


EXTRA


def make_mask(n):
    return jnp.ones(n)


def create_flow():
    layers = []
    var = [Coupling(network=Net(3), mask=make_mask(3), c_in=3) for _ in range(2)]
    layers += [Variational(var_flows=var)]
    for i in range(2):
        layers += [Coupling(network=Net(3), mask=make_mask(3), c_in=3)]
    MORE
    model = Flow(layers)
    return model


def train(flow, key, x):
    TRAIN


def main(key, x, f):
    CALL
"""


def _fresh(call: str, extra: str = "", more: str = "pass", train: str = "pass") -> bool:
    code = PROGRAM.replace("EXTRA", extra or "pass").replace("MORE", more)
    code = code.replace("TRAIN", train).replace("CALL", call)
    ctx = context(code, IMPORTS)
    at = stmt(ctx, "out = ")
    value = at.node.value if type(at.node) is cst.Assign else None
    assert type(value) is cst.Call
    return fresh_result(ctx, at, value)


@pytest.mark.parametrize(
    "call",
    [
        "out = create_flow().init(key, x)",
        "m = create_flow()\n    out = m.init(key, x)",  # a local name that keeps it
        "out = Flow([Net(3), Net(4)]).init(key, x)",
        "out = Flow((Net(3),)).init(key, x)",
        "out = Coupling(network=Net(3), mask=x, c_in=3).init(key, x)",  # `mask` inert
        "out = Variational(var_flows=[Net(3)], quants=8).init(key, x)",
        "out = Variational().init(key, x)",  # the default: None
    ],
)
def test_an_assembled_module_s_init_makes_new_buffers(call: str) -> None:
    assert _fresh(call)


@pytest.mark.parametrize(
    "call",
    [
        "out = f().init(key, x)",  # a factory autoopt cannot see
        "out = Flow(f).init(key, x)",  # a list of unknown objects
        "out = Flow([f]).init(key, x)",
        "out = Flow([Net(3), *f]).init(key, x)",
        "out = Coupling(network=f, mask=x, c_in=3).init(key, x)",
        "out = Coupling(network=nn.Dense(3, kernel_init=f), mask=x, c_in=3).init(key, x)",
        "out = create_flow().init(key, x, capture_intermediates=True)",  # keeps outputs
        "out = Net(3).init(key, x, capture_intermediates=True)",
        "out = Flow([Net(3)]).init(key, x, **f)",
        # the list changed after the factory: an appended layer may keep an array
        "m = create_flow()\n    m.flows.append(f)\n    out = m.init(key, x)",
        "m = create_flow()\n    keep(m)\n    out = m.init(key, x)",  # handed to unseen code
        "m = create_flow()\n    n = m\n    out = m.init(key, x)",
    ],
)
def test_an_assembled_module_of_unknown_parts_or_changed_is_not_proven(call: str) -> None:
    assert not _fresh(call)


@pytest.mark.parametrize(
    "more",
    [
        "layers += [nn.Dense(3, kernel_init=lambda *_: TABLE)]",  # keeps `TABLE`
        "layers.append(Net(3))",  # the list handed on: a method may add anything
        "KEPT.append(layers)",  # kept elsewhere, where it may change
        "layers = layers + EXTRA_LAYERS",  # an unknown list
        "layers[0] = TABLE",
        "del layers",
    ],
)
def test_a_factory_whose_list_may_hold_other_objects_is_not_proven(more: str) -> None:
    assert not _fresh("out = create_flow().init(key, x)", more=more)


@pytest.mark.parametrize(
    ("train", "fresh"),
    [
        ("out = flow.init(key, x)", True),
        ("flow.flows.append(Net(3))\n    out = flow.init(key, x)", False),
        ("out = flow.init(key, x)\n    keep(flow)", False),  # unseen code holds it
        ("out = flow.init(key, x)\n    return flow", False),  # so may the caller
        ("out = flow.init(key, x)\n    flow.apply(out, x)", True),
    ],
)
def test_a_parameter_holding_an_assembled_module_must_keep_it(train: str, fresh: bool) -> None:
    code = PROGRAM.replace("EXTRA", "pass").replace("MORE", "pass").replace("TRAIN", train)
    ctx = context(code.replace("CALL", "train(create_flow(), key, x)"), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


@pytest.mark.parametrize(
    ("extra", "cls", "fresh"),
    [
        # `__call__` returning its input changes no variable `init` returns
        ("class Ident(Flow):\n    def __call__(self, x):\n        return x", "Ident", True),
        (  # its own `init` returns anything
            "class Own(Flow):\n    def init(self, rngs, x):\n        return {'params': x}",
            "Own",
            False,
        ),
        (  # so may flax's own methods `init` runs
            "class Setup(Flow):\n    def _try_setup(self, shallow=False):\n        pass",
            "Setup",
            False,
        ),
        ("class Post(Flow):\n    def __post_init__(self):\n        pass", "Post", False),
        ("class Plain:\n    def init(self, key, x):\n        return {'params': x}", "Plain", False),
        (  # a non-linen base with an `init` of its own
            "class Other:\n    def init(self, key, x):\n        return x\n\n"
            "class Mixed(Other):\n    flows: object\n",
            "Mixed",
            False,
        ),
        (  # a subclass storing an attribute its base reads as a set-up layer
            "class Stored(Flow):\n    def setup(self):\n        self.layer = nn.Dense(3)",
            "Stored",
            False,
        ),
        (  # the loop's target used other than called
            "class Leaky(nn.Module):\n    flows: object\n\n    def __call__(self, x):\n"
            "        for flow in self.flows:\n            x = flow(x)\n"
            "        return self.param('w', nn.initializers.zeros, flow.shape)",
            "Leaky",
            False,
        ),
        (  # the field handed on
            "class Handed(nn.Module):\n    flows: object\n\n    def __call__(self, x):\n"
            "        return apply_all(self.flows, x)",
            "Handed",
            False,
        ),
    ],
)
def test_a_subclass_or_another_class_is_proven_only_as_linen_runs_it(
    extra: str, cls: str, fresh: bool
) -> None:
    assert _fresh(f"out = {cls}([Net(3)]).init(key, x)", extra=extra) is fresh


def test_a_factory_returning_a_non_linen_object_is_not_proven() -> None:
    extra = (
        "class Table:\n    def init(self, key, x):\n        return {'params': {'w': x}}\n\n"
        "def create_table():\n    table = Table()\n    return table"
    )
    assert not _fresh("out = create_table().init(key, x)", extra=extra)


OWN = "class Own(nn.Module):\n    def __call__(self, x):\n        return x\n"


@pytest.mark.parametrize(
    ("method", "fresh"),
    [
        ("def scale(self, x):\n        return x", True),
        # flax's methods `init` runs, or a dunder: each may make `init` return `x`
        ("def init_with_output(self, rngs, x):\n        return x, {'params': x}", False),
        ("def _try_setup(self, shallow=False):\n        pass", False),
        ("def __post_init__(self):\n        pass", False),
        ("init = staticmethod(lambda key, x: {'params': x})", False),
    ],
)
def test_a_direct_module_class_binding_a_name_of_linen_s_is_not_proven(
    method: str, fresh: bool
) -> None:
    extra = OWN + f"\n    {method}"
    assert _fresh("out = Own().init(key, x)", extra=extra) is fresh


STACK = (
    "class Stack(nn.Module):\n    layers: object\n\n    def __call__(self, x):\n"
    "        for layer in self.layers:\n            x = layer(x)\n        return x\n"
)


@pytest.mark.parametrize(
    ("call", "fresh"),
    [
        ("out = Stack([]).init(key, x)", True),  # no one else holds the list
        ("out = Stack(()).init(key, x)", True),
        ("m = Stack([])\n    out = m.init(key, x)", True),  # a local name that keeps it
        # flax keeps the very list given, which whoever holds the module may change
        ("m = Stack([])\n    m.layers.append(f)\n    out = m.init(key, x)", False),
        ("m = Stack([1])\n    keep(m)\n    out = m.init(key, x)", False),
        ("m = Stack([])\n    n = m\n    out = m.init(key, x)", False),
        ("out = Late([]).init(key, x)", False),  # sealed only where `init` runs it
        ("out = Late(()).init(key, x)", True),
    ],
)
def test_a_direct_module_class_given_a_literal_list_must_keep_it(call: str, fresh: bool) -> None:
    late = STACK.replace("Stack", "Late") + "\n    def later(self):\n        return keep(self)\n"
    assert _fresh(call, extra=STACK + "\n\n" + late) is fresh
