"""Which expressions are provably one array."""

from __future__ import annotations

import pytest

from autoopt.analysis.values.arrays import annotated_array, is_array, returns_one_array

from ..helpers import HEADER, context, expr, stmt

SOURCE = """
a = jnp.zeros(3)
t, u = jnp.ones(2), 3
if c:
    v = jnp.ones(2)
else:
    v = jnp.zeros(2)
if c:
    w = jnp.ones(2)
b = a
for i in range(3):
    b = b + 1

def ident(q):
    return q * 2

@jax.jit
def deco(q):
    return q

def pair(q):
    return q, q

probe(a, t, u, v, w, x, c, b)
"""


@pytest.mark.parametrize(
    ("code", "array"),
    [
        ("jnp.zeros(3)", True),
        ("jnp.split(x, 2)", False),  # a list of arrays
        ("jnp.where(c)", False),  # a tuple with one argument
        ("jnp.linalg.norm(x)", True),
        ("jnp.linalg.qr(x)", False),
        ("jax.nn.relu(x)", True),
        ("jax.random.normal(k, (2,))", True),
        ("jax.nn.initializers.normal()(k, (2,))", False),
        ("np.zeros(3)", False),  # a NumPy array is not a JAX one
        ("a", True),
        ("a + 1", True),
        ("1 + a", True),
        ("-a", True),
        ("a[0]", True),
        ("a.T", True),
        ("a.shape", False),
        ("a.sum()", True),
        ("a.reshape(2, 3)", True),
        ("a.tolist()", False),
        ("a.at[0].set(1)", True),
        ("a if c else jnp.ones(2)", True),
        ("a if c else 3", False),
        ("(a, a)", False),
        ("1 + 2", False),
        ("t", True),  # tuple unpacking, element by element
        ("u", False),
        ("v", False),  # no definition runs on every path
        ("w", False),
        ("b", True),  # a loop-carried `b = b + 1`
        ("x", False),  # unknown
        ("x.at[0].set(1)", False),
        ("ident(a)", True),  # follows the module function's return
        ("ident(3)", False),
        ("deco(a)", False),  # decorated: not followed
        ("pair(a)", False),
    ],
)
def test_is_array(code: str, array: bool) -> None:
    ctx = context(SOURCE, HEADER)
    assert is_array(ctx, stmt(ctx, "probe("), expr(code), frozenset()) is array


@pytest.mark.parametrize("code", ["x", "x.at[0].set(1)", "ident(x)", "x + 1"])
def test_known_names_are_arrays_on_entry(code: str) -> None:
    ctx = context(SOURCE, HEADER)
    assert is_array(ctx, stmt(ctx, "probe("), expr(code), frozenset({"x"}))


def test_returns_one_array() -> None:
    ctx = context(SOURCE, HEADER)
    functions = ctx.graph.functions
    assert returns_one_array(ctx, functions["ident"], frozenset({"q"}))
    assert not returns_one_array(ctx, functions["ident"], frozenset())
    assert not returns_one_array(ctx, functions["pair"], frozenset({"q"}))


def test_annotated_array() -> None:
    ctx = context("def f(a: jax.Array, b: jnp.ndarray, c: int, *, d: Array, e):\n    pass\n")
    fn = ctx.graph.functions["f"]
    assert [annotated_array(fn, p) for p in "abcde"] == [True, True, False, True, False]
