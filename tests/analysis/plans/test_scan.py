"""Can a collecting loop of jitted calls run as one jitted `lax.scan`?"""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.scan import Collect, ScanPlan, scan_plan

from ..helpers import HEADER, context, expr, stmt

BASE = """
from functools import partial

N = 8
SCALE = 0.5
W = jnp.ones(3)

@jax.jit
def update(params, x):
    return params * 0.9, (params * x).sum()

def main():
    params = jnp.zeros(3)
    xs = jnp.ones((8, 3))
    losses = []
    for i in range(8):
        params, loss = update(params, xs[i])
        losses.append(float(loss))
    return params, losses
"""
APPEND = "        losses.append(float(loss))"
P, XS = ("params",), ("xs",)


def edit(old: str, new: str, code: str = BASE) -> str:
    assert old in code
    return code.replace(old, new)


def plan(code: str) -> tuple[object, ScanPlan | None]:
    """The plan for the first loop, collecting `loss` into `losses`."""
    ctx = context(code, HEADER)
    collect = Collect(stmt(ctx, "losses.append("), "losses", expr("loss"))
    return ctx, scan_plan(ctx, ctx.graph.loops[0], [collect])


def test_the_plan() -> None:
    ctx, found = plan(BASE)
    assert found is not None
    assert (found.fn.name, found.index, [ctx.code(b) for b in found.bounds]) == ("main", "i", ["8"])
    assert (found.carry, found.inputs) == (("params",), ("xs",))
    [collect] = found.collects
    assert (collect.name, ctx.code(collect.value), collect.condition) == ("losses", "loss", None)
    assert collect.line is collect.stmt.anchor  # the body line that holds it


GUARD = "        if i % {} == 0:\n    " + APPEND


@pytest.mark.parametrize(
    ("code", "bounds", "carry", "inputs", "condition"),
    [
        pytest.param(edit("range(8)", "range(N)"), ["N"], P, XS, None, id="module-constant-bound"),
        pytest.param(edit("range(8)", "range(2, 8)"), ["2", "8"], P, XS, None, id="start-stop"),
        pytest.param(edit(APPEND, GUARD.format(2)), ["8"], P, XS, "i % 2 == 0", id="guarded"),
        pytest.param(edit(APPEND, GUARD.format("N")), ["8"], P, XS, "i % N == 0", id="guard-const"),
        pytest.param(
            edit("params, loss = update(params, xs[i])", "loss = jnp.sum(xs[i] * params)"),
            ["8"],
            (),
            ("params", "xs"),
            None,
            id="no-carry",  # `params` is an input
        ),
        pytest.param(
            edit("update(params, xs[i])", "update(params, jnp.tanh(xs[i]) * 2.0)"),
            ["8"],
            P,
            XS,
            None,
            id="public-jax-functions",  # they trace the same
        ),
        pytest.param(
            edit("update(params, xs[i])", "update(params, xs[i] * SCALE)"),
            ["8"],
            P,
            XS,
            None,
            id="numeric-module-constant",
        ),
        pytest.param(
            edit("@jax.jit", "@partial(jax.jit, donate_argnames=('params',))"),
            ["8"],
            P,
            XS,
            None,
            id="donating-jit",  # donation changes nothing traced
        ),
    ],
)
def test_plans(code, bounds, carry, inputs, condition) -> None:
    ctx, found = plan(code)
    assert found is not None
    assert [ctx.code(b) for b in found.bounds] == bounds
    assert (found.carry, found.inputs) == (carry, inputs)
    [collect] = found.collects
    assert (collect.condition and ctx.code(collect.condition)) == condition


@pytest.mark.parametrize(
    "code",
    [
        # the loop
        pytest.param(
            "xs = jnp.ones((8, 3))\nlosses = []\nfor i in range(8):\n"
            "    loss = jnp.sum(xs[i])\n    losses.append(float(loss))\n",
            id="module-level",
        ),
        pytest.param(edit("range(8)", "range(0, 8, 2)"), id="range-step"),
        pytest.param(
            edit("def main()", "def main(n)", edit("range(8)", "range(n)")), id="unknown-trip-count"
        ),
        pytest.param(edit("range(8)", "range(0)"), id="no-step"),  # scan traces its body anyway
        pytest.param(edit("range(8)", "range(5, 2)"), id="negative-trip-count"),
        pytest.param(
            edit(APPEND, APPEND + "\n        for j in range(2):\n            pass"),
            id="nested-loop",
        ),
        # the body: rebinding lines and the collects only
        pytest.param(edit(APPEND, APPEND + "\n        print(i)"), id="print"),
        pytest.param(
            edit(
                APPEND,
                "        if i % 2 == 0:\n    " + APPEND + "\n        else:\n            pass",
            ),
            id="collect-under-if-else",
        ),
        pytest.param(
            edit(APPEND, "        if loss > 0:\n    " + APPEND), id="collect-under-value-test"
        ),
        # what the body computes
        pytest.param(edit("update(params, xs[i])", "helper(params, xs[i])"), id="unknown-call"),
        pytest.param(edit("update(params, xs[i])", "update(params, i)"), id="index-as-value"),
        pytest.param(edit("xs = jnp.ones((8, 3))", "xs = np.ones((8, 3))"), id="host-rows"),
        pytest.param(edit(APPEND, APPEND + "\n        xs = xs * 2"), id="rows-change"),
        pytest.param(
            edit("@jax.jit", "@partial(jax.jit, static_argnames=('x',))"), id="static-jit-option"
        ),
        pytest.param(
            edit("update(params, xs[i])", "update(params, jnp.asarray(xs[i]))"), id="transfer"
        ),
        pytest.param(edit("update(params, xs[i])", "update(params, xs[i] * W)"), id="module-array"),
        pytest.param(
            edit(
                "    losses = []",
                "    losses = []\n    step = update",
                edit("update(params, xs[i])", "step(params, xs[i])"),
            ),
            id="local-function",
        ),
        pytest.param(
            edit("params, loss = update(params, xs[i])", "loss = update(params, xs[i])[1]"),
            id="subscripted-call",
        ),
        # the carry
        pytest.param(
            edit("    return params, losses", "    return params, losses, i"), id="index-read-after"
        ),
        pytest.param(
            edit(
                "    losses = []",
                "    losses = []\n    count = 0",
                edit(
                    "params, loss = update(params, xs[i])",
                    "params, loss = update(params, xs[i])\n        count = count + 1",
                ),
            ),
            id="python-carry",
        ),
    ],
)
def test_no_plan(code: str) -> None:
    assert plan(code)[1] is None
