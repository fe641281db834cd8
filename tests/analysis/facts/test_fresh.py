"""Library calls whose results are new buffers: `fresh_result` and `held_fields`."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.fresh import fresh_result, held_fields, receiver_class

from ..helpers import HEADER, context, stmt

IMPORTS = (
    HEADER
    + "import optax\nimport haiku as hk\nimport equinox as eqx\nimport flax.linen as nn\n"
    + "from flax.training import train_state\n"
)
PROGRAM = """
TABLE = jnp.ones(3)
HIDDEN = 8
opt = optax.adam(1e-3)
net = hk.transform(lambda x: hk.Linear(HIDDEN)(x))
leaky = hk.transform(lambda x: hk.get_parameter("w", [3], init=lambda *_: TABLE))
mixed = optax.chain(my_transform(), optax.adam(1e-3))
pure = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))

class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)

class Pretrained(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + self.param("w", lambda *_: TABLE)

class Custom(nn.Module):
    def init(self, key, x):
        return GLOBAL

def main(params, key, x):
    local = optax.sgd(0.1)
    if x:
        local = my_transform()
    CALL
"""


@pytest.mark.parametrize(
    ("call", "fresh"),
    [
        ("opt.init(params)", True),
        ("net.init(key, x)", True),
        ("pure.init(params)", True),
        ("MLP().init(key, x)", True),
        ("nn.Dense(3).init(key, x)", True),
        ("eqx.nn.MLP(2, 2, 4, 1, key=key)", True),
        ("optax.adam(0.1).init(params)", True),
        ("mixed.init(params)", False),  # a user's transformation may return `params`
        ("local.init(params)", False),  # not one constructor on every path
        ("Custom().init(key, x)", False),  # its own `init`
        ("opt.update(params, params)", False),  # not listed fresh
        ("eqx.nn.Lambda(f)", False),  # not listed
        ("eqx.nn.Embedding(weight=TABLE)", False),  # holds `TABLE`
        ("leaky.init(key, x)", False),  # its initializer returns the global `TABLE`
        ("Pretrained().init(key, x)", False),  # likewise
        ("nn.Embed(3, 2, embedding_init=lambda *_: TABLE).init(key, x)", False),
    ],
)
def test_fresh_result(call: str, fresh: bool) -> None:
    ctx = context(PROGRAM.replace("CALL", f"out = {call}"), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


def test_a_rebound_global_is_no_proven_object() -> None:
    ctx = context(PROGRAM.replace("CALL", "out = opt.init(params)") + "opt = other()\n", IMPORTS)
    at = stmt(ctx, "out = ")
    assert receiver_class(ctx, at, cst.parse_expression("opt")) is None


@pytest.mark.parametrize(
    ("call", "held"),
    [
        ("train_state.TrainState.create(apply_fn=f, params=params, tx=opt)", ["params"]),
        ("train_state.TrainState.create(apply_fn=f, params=params, tx=mixed)", None),
        ("train_state.TrainState.create(f, params, opt)", None),  # not by keyword
        ("make_state(params=params, tx=opt)", None),
    ],
)
def test_held_fields(call: str, held: list[str] | None) -> None:
    ctx = context(PROGRAM.replace("CALL", f"out = {call}"), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    found = held_fields(ctx, at, at.node.value)
    assert (None if found is None else [ctx.code(e) for e in found]) == held
