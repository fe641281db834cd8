"""The positions of a framework jit's returned tuple that hold new buffers only."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.aliases import scope_sharing
from autoopt.analysis.facts.jit_outputs import fresh_positions

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import equinox as eqx\n"
PROGRAM = """
@eqx.filter_jit
def make_step(model, x, n):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x)
    model = eqx.apply_updates(model, grads)
    return loss, model, n, jnp.sum(x)

@eqx.filter_jit
def two_returns(model, x):
    if x.shape[0] > 2:
        return jnp.sum(x), model
    return model, jnp.sum(x)

@eqx.filter_jit
def not_a_tuple(model, x):
    out = (jnp.sum(x), model)
    return out

@jax.jit
def plain(model, x):
    return jnp.sum(x), model

def eager(model, x):
    return jnp.sum(x), model

def main(model, x):
    a, b, c, d = make_step(model, x, 3)
    e, f = two_returns(model, x)
    g, h = not_a_tuple(model, x)
    i, j = plain(model, x)
    k, m = eager(model, x)
    return a, b, c, d, e, f, g, h, i, j, k, m
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a, b, c, d = make_step(model, x, 3)", {0, 3}),
        ("e, f = two_returns(model, x)", set()),
        ("g, h = not_a_tuple(model, x)", set()),
        ("i, j = plain(model, x)", set()),  # jax.jit: every output is new (aliases.py)
        ("k, m = eager(model, x)", set()),
    ],
)
def test_fresh_positions(line: str, expected: set[int]) -> None:
    ctx = context(PROGRAM, IMPORTS)
    node = stmt(ctx, line).node
    assert type(node) is cst.Assign and type(node.value) is cst.Call
    count = len(node.targets[0].target.elements)  # type: ignore[attr-defined]
    assert fresh_positions(ctx, node.value, count) == expected


def test_wrong_count_is_none() -> None:
    ctx = context(PROGRAM, IMPORTS)
    node = stmt(ctx, "a, b, c, d = make_step(model, x, 3)").node
    assert fresh_positions(ctx, node.value, 3) == frozenset()  # type: ignore[attr-defined]


def test_sharing_unlinks_fresh_targets_only() -> None:
    """`a` (the loss) and `d` share nothing; `b`, `c` may hold the arguments' objects."""
    ctx = context(PROGRAM, IMPORTS)
    sharing = scope_sharing(ctx, "main")
    assert not sharing.may_share("a", "model") and not sharing.may_share("d", "x")
    assert sharing.may_share("b", "model")
    assert sharing.may_share("e", "model") and sharing.may_share("f", "model")
