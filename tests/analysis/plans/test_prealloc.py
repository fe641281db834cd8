"""Can a loop that grows an array by concatenation write into a preallocated buffer?
Each premise that fails names itself."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.prealloc import Prealloc, prealloc

from ..helpers import HEADER, context, expr, stmt

START = "acc = jnp.zeros((0, 3), jnp.float32)"
ROW = "jnp.ones((1, 3), jnp.float32)"


def plan(
    loop: str = "for i in range(n):",
    start: str = START,
    piece: str = ROW,
    join: str = "concatenate",
    body: str = "",
    before: str = "",
) -> Prealloc | str:
    """The plan for `acc = jnp.<join>([acc, <piece>])` as the last line of `loop`."""
    grow = f"acc = jnp.{join}([acc, {piece}])"
    code = (
        f"def f(n, m, xs):\n{before}    {start}\n    {loop}\n{body}        {grow}\n    return acc\n"
    )
    ctx = context(code, HEADER)
    return prealloc(ctx, ctx.graph.loops[0], stmt(ctx, grow), "acc", expr(piece), join)


@pytest.mark.parametrize(
    ("loop", "piece", "size", "start"),
    [
        ("for i in range(n):", ROW, "len(range(n))", "i"),
        ("for i in range(2, n):", ROW, "len(range(2, n))", "i - 2"),
        ("for i in range(-2, n):", ROW, "len(range(-2, n))", "i + 2"),
        ("for i in range(m, n):", ROW, "len(range(m, n))", "i - m"),
        (
            "for i in range(len(xs)):",
            "jnp.ones((2, 3), jnp.float32)",
            "len(range(len(xs))) * 2",
            "i * 2",
        ),
        (
            "for i in range(1, n):",
            "jnp.ones((2, 3), jnp.float32)",
            "len(range(1, n)) * 2",
            "(i - 1) * 2",
        ),
        (
            "for i in range(m, n):",
            "jnp.ones((2, 3), jnp.float32)",
            "len(range(m, n)) * 2",
            "(i - m) * 2",
        ),
        ("for i in range(n):", "jnp.ones(3, jnp.float32)[None]", "len(range(n))", "i"),
    ],
)
def test_the_plan_sizes_the_buffer_and_places_each_step(loop, piece, size, start) -> None:
    assert plan(loop=loop, piece=piece) == Prealloc(size, start)


NOT_COUNTED = "the trip count is not known: not `for i in range(...)`"
MAY_CHANGE = "the trip count is not known: the `range` arguments or the loop variable may change"
NOT_EMPTY = "`acc` is not a fresh empty array of known dtype (`jnp.zeros((0, n), dtype)`)"


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"loop": "for x in xs:"}, NOT_COUNTED),
        ({"loop": "while n:"}, NOT_COUNTED),
        ({"loop": "for i in range(f(n)):"}, MAY_CHANGE),
        ({"loop": "for i in range(n):", "body": "        i = i + 1\n"}, MAY_CHANGE),
        (
            {"loop": "for i in range(m, n):", "body": "        m = 2\n"},
            "the loop's start is neither a literal nor a name the loop leaves alone",
        ),
        (
            {"body": "        if i:\n            break\n"},
            "the loop has a `break`, so it may skip growing",
        ),
        (
            {"body": "        if i:\n            continue\n"},
            "the loop has a `continue`, so it may skip growing",
        ),
        (
            {"body": "        if i:\n            return acc\n"},
            "the loop has a `return`, so it may skip growing",
        ),
        ({"start": "acc = jnp.zeros((1, 3), jnp.float32)"}, NOT_EMPTY),  # not empty
        ({"start": "acc = jnp.zeros((0, 3), y)"}, NOT_EMPTY),  # dtype unknown
        ({"start": "acc = xs"}, NOT_EMPTY),
        (
            {
                "start": "pass",
                "before": (
                    "    acc = jnp.zeros((0, 3))\n    if m:\n        acc = jnp.zeros((0, 4))\n"
                ),
            },
            NOT_EMPTY,
        ),  # two definitions reach the loop
        ({"piece": "v"}, "cannot prove how many rows `v` has"),
        (
            {"piece": "jnp.ones((n, 3), jnp.float32)"},
            "cannot prove how many rows `jnp.ones((n, 3), jnp.float32)` has",
        ),
        ({"piece": "xs[i][None]"}, "cannot prove `xs[i][None]` has the dtype of `acc` (float32)"),
        (
            {"piece": "jnp.ones((1, 3), jnp.int32)"},
            "`jnp.ones((1, 3), jnp.int32)` is int32 and `acc` float32: concatenation promotes",
        ),
        (
            {"piece": "jnp.ones((1, 3))"},
            "`jnp.ones((1, 3))` is the default float and `acc` float32: concatenation promotes",
        ),
        (
            {"join": "hstack"},
            "cannot prove the rank of `jnp.ones((1, 3), jnp.float32)`, which `hstack` would change",
        ),
        (
            {
                "join": "vstack",
                "start": "acc = jnp.zeros(0, jnp.float32)",
                "piece": "jnp.ones(1, jnp.float32)",
            },
            "cannot prove the rank of `jnp.ones(1, jnp.float32)`, which `vstack` would change",
        ),
    ],
)
def test_each_failing_premise_says_why(changes: dict[str, str], why: str) -> None:
    assert plan(**changes) == why


@pytest.mark.parametrize(
    "changes",
    [
        {"body": "        for j in range(2):\n            break\n"},  # the inner loop's break
        {"start": "acc = jnp.zeros((0, 3))", "piece": "jnp.ones((1, 3))"},  # both default
        {"start": "acc = jnp.zeros((0, 3))", "piece": "jnp.ones((1, 3)) * 2.0"},
        {"join": "vstack"},
        {"join": "vstack", "piece": "jnp.ones(3, jnp.float32).reshape(1, 3)"},
        {
            "join": "hstack",
            "start": "acc = jnp.zeros(0, jnp.float32)",
            "piece": "jnp.ones(2, jnp.float32)",
        },
    ],
)
def test_premises_that_hold(changes: dict[str, str]) -> None:
    assert isinstance(plan(**changes), Prealloc)


def test_growth_under_an_if_does_not_happen_on_every_iteration() -> None:
    code = (
        f"def f(n):\n    {START}\n    for i in range(n):\n        if i % 2:\n"
        f"            acc = jnp.concatenate([acc, {ROW}])\n    return acc\n"
    )
    ctx = context(code, HEADER)
    grow = stmt(ctx, "acc = jnp.concatenate")
    why = prealloc(ctx, ctx.graph.loops[0], grow, "acc", expr(ROW), "concatenate")
    assert why == "`acc` does not grow on every iteration"


@pytest.mark.parametrize(
    "line",
    [
        f"if i % 2: acc = jnp.concatenate([acc, {ROW}])",  # one line: the `if` is the anchor
        f"while i > n: acc = jnp.concatenate([acc, {ROW}])",
    ],
)
def test_growth_in_a_one_line_compound_statement_is_not_every_iteration(line: str) -> None:
    code = f"def f(n):\n    {START}\n    for i in range(n):\n        {line}\n    return acc\n"
    ctx = context(code, HEADER)
    grow = stmt(ctx, "acc = jnp.concatenate")
    why = prealloc(ctx, ctx.graph.loops[0], grow, "acc", expr(ROW), "concatenate")
    assert why == "`acc` does not grow on every iteration"
