"""What an argument at a call site is: constant, varying, unhashable, an array."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.callsites import ArgKind, classify

from ..helpers import HEADER, context

SOURCE = """
N = 4
MODE = "fast"
LAYERS = [1, 2]
key = jax.random.PRNGKey(0)
W = jnp.ones(3)
if c:
    flip = 1
else:
    flip = "x"

def f(x, n, mode=None):
    return x

def g(x, n):
    return f(x, n)

def outer(k):
    return g(1, k)

def twice(k):
    return g(1, k)

outer(3)
outer(4)
twice(3)
twice(W)

for i in range(3):
    t = i * 2
    f(W, N)
    f(W, i)
    f(W, t)
    f(W, [1, 2])
    f(W, {"a": 1})
    f(W, (1, -2, None))
    f(W, MODE)
    f(W, LAYERS)
    f(W, key)
    f(W, jnp.ones(2))
    f(W, flip)
    f(W, unknown)
    f(W, n=N, mode="a")
    f(*args)
"""


def sites(ctx, name: str):
    return {ctx.code(site.call): site for site in ctx.graph.call_sites(ctx.graph.functions[name])}


@pytest.mark.parametrize(
    ("call", "n", "kind"),
    [
        ("f(x, n)", "n", ArgKind.UNKNOWN),  # `twice` passes a constant and an array
        ("f(W, N)", "N", ArgKind.CONSTANT),
        ("f(W, i)", "i", ArgKind.VARYING),
        ("f(W, t)", "t", ArgKind.VARYING),  # computed in the loop
        ("f(W, [1, 2])", "[1, 2]", ArgKind.UNHASHABLE),
        ('f(W, {"a": 1})', '{"a": 1}', ArgKind.UNHASHABLE),
        ("f(W, (1, -2, None))", "(1, -2, None)", ArgKind.CONSTANT),
        ("f(W, MODE)", "MODE", ArgKind.CONSTANT),
        ("f(W, LAYERS)", "LAYERS", ArgKind.UNHASHABLE),
        ("f(W, key)", "key", ArgKind.ARRAY),
        ("f(W, jnp.ones(2))", "jnp.ones(2)", ArgKind.ARRAY),
        ("f(W, flip)", "flip", ArgKind.CONSTANT),  # every reaching definition a literal
        ("f(W, unknown)", "unknown", ArgKind.UNKNOWN),
        ('f(W, n=N, mode="a")', "N", ArgKind.CONSTANT),
    ],
)
def test_classify(call: str, n: str, kind: ArgKind) -> None:
    ctx = context(SOURCE, HEADER)
    site = sites(ctx, "f")[call]
    argument = site.argument(1, "n")
    assert argument is not None and ctx.code(argument) == n
    assert classify(ctx, site, argument) is kind


def test_a_parameter_is_followed_to_the_callers() -> None:
    ctx = context(SOURCE.replace("twice(W)", "twice(5)"), HEADER)
    site = sites(ctx, "f")["f(x, n)"]
    assert classify(ctx, site, site.argument(1, "n")) is ArgKind.CONSTANT


@pytest.mark.parametrize(
    ("call", "index", "name", "found"),
    [
        ('f(W, n=N, mode="a")', 2, "mode", '"a"'),
        ("f(W, N)", 2, "mode", None),  # left to its default
        ("f(W, N)", 0, "x", "W"),
        ("f(*args)", 1, "n", None),  # a starred argument hides the position
    ],
)
def test_argument_for(call: str, index: int, name: str, found: str | None) -> None:
    ctx = context(SOURCE, HEADER)
    argument = sites(ctx, "f")[call].argument(index, name)
    assert (None if argument is None else ctx.code(argument)) == found
