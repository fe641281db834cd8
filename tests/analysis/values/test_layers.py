"""Calls of a held linen layer's methods (analysis/values/layers.py)."""

from __future__ import annotations

import pytest

from autoopt.analysis.values.layers import held_call, layer_call

from ..helpers import HEADER, context, expr, stmt

HELD = {"model": "flax.linen.Dense"}


@pytest.mark.parametrize(
    ("code", "known"),
    [
        ("model.apply(params, x)", True),
        ("model.init(key, x)", True),
        ("model.apply(params, x, mutable=['batch_stats'], rngs=rngs)", True),
        ("model.apply(params, x, method=fn)", False),  # runs a function it is given
        ("model.apply(params, x, capture_intermediates=keep)", False),
        ("model.apply(params, **options)", False),  # may hold `method=`
        ("model.bind(params)", False),  # not a listed method
        ("other.apply(params, x)", False),  # not held
        ("model.layer.apply(params, x)", False),  # an attribute of it
    ],
)
def test_layer_call(code: str, known: bool) -> None:
    assert layer_call(HELD, expr(code)) is known  # type: ignore[arg-type]  # a call


def test_held_call_is_a_read_of_the_global() -> None:
    code = """
    def loss(params, x):
        return model.apply(params, x)

    def shadowed(model, params, x):
        return model.apply(params, x)
    """
    ctx = context(code, HEADER)
    held = ctx.derived(ctx.module, HELD)
    first = stmt(held, "return model.apply(params, x)", "loss")
    second = stmt(held, "return model.apply(params, x)", "shadowed")
    assert held_call(held, "loss", first.node.value)
    assert not held_call(held, "shadowed", second.node.value)
    assert not held_call(ctx, "loss", stmt(ctx, "return model.apply(params, x)", "loss").node.value)
