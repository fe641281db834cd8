"""Library objects: a module global bound once to an optax optimizer, never changed."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.library_objects import library_object, pure_method
from autoopt.analysis.facts.purity import changed_module_names, impurities

from ..helpers import HEADER, context

IMPORTS = HEADER + "import optax\n"
STEP = """
optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))

def step(grads, state, params):
    updates, state = optimizer.update(grads, state, params)
    return optax.apply_updates(params, updates), state
EXTRA
"""


def _ctx(extra: str = ""):
    return context(STEP.replace("EXTRA", extra), IMPORTS)


def test_bound_once_optimizer_is_proven_and_its_update_pure():
    ctx = _ctx()
    assert library_object(ctx, "optimizer") == "optax.GradientTransformation"
    assert "optimizer" not in changed_module_names(ctx)
    assert impurities(ctx, ctx.graph.functions["step"]) == []
    assert pure_method(ctx, ctx.graph.functions["step"], "optimizer.init")


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("def reset():\n    global optimizer\n    optimizer = optax.sgd(0.1)\n", "mutates"),
        ("optimizer = optax.sgd(0.1)\n", "mutates"),
        ("optimizer.count = 0\n", "mutates"),
        ("def grow(v):\n    optimizer.append(v)\n", "mutates"),
        ("globals()['optimizer'] = optax.sgd(0.1)\n", "mutates"),
    ],
)
def test_a_changed_optimizer_is_not_proven(extra, reason):
    ctx = _ctx(extra)
    assert library_object(ctx, "optimizer") is None
    found = impurities(ctx, ctx.graph.functions["step"])
    assert found and reason in found[0]


def test_an_unlisted_method_or_a_parameter_stays_impure():
    ctx = context(
        """
optimizer = optax.adam(1e-3)

def other(g, s):
    return optimizer.frobnicate(g, s)

def given(optimizer, g, s, p):
    return optimizer.update(g, s, p)
""",
        IMPORTS,
    )
    assert impurities(ctx, ctx.graph.functions["other"]) == [
        "calls `optimizer.frobnicate`, code autoopt cannot see"
    ]
    assert impurities(ctx, ctx.graph.functions["given"]) == [
        "calls `optimizer.update`, which may change its argument `optimizer`: code autoopt "
        "cannot see"
    ]


def test_a_user_object_with_an_update_method_is_not_proven():
    ctx = context(
        """
class Acc:
    def update(self, v):
        self.v = v

acc = Acc()

def step(v):
    acc.update(v)
    return v
""",
        IMPORTS,
    )
    assert library_object(ctx, "acc") is None
    assert impurities(ctx, ctx.graph.functions["step"])[0] == (
        "mutates `acc`, which lives outside the function"
    )
