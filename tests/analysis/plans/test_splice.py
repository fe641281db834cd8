"""`x = jnp.concatenate([x[:i], v, x[i + k:]])` as an in-place update of rows i..i+k-1."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.splice import find_splice, rows_of, start_in_range, strongly_typed

from ..helpers import HEADER, context, expr, stmt


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("x = jnp.concatenate([x[:i], v[None], x[i + 1:]])", ("i", 1, "v[None]", 1)),
        ("x = jnp.concatenate([x[:i], v[None], x[1 + i:]])", ("i", 1, "v[None]", 1)),
        ("x = jnp.concatenate([x[0:i], v[None], x[i + 1:]], axis=0)", ("i", 1, "v[None]", 1)),
        ("x = jnp.concatenate((x[:i], v, x[i + 2:]))", ("i", 2, "v", None)),  # rows unproven
        (
            "x = jnp.concatenate([x[:i], jnp.zeros((2, 3)), x[i + 2:]])",
            ("i", 2, "jnp.zeros((2, 3))", 2),
        ),
        (
            "x = jnp.concatenate([x[:i], jnp.array([a, b]), x[i + 2:]])",
            ("i", 2, "jnp.array([a, b])", 2),
        ),
        ("x = jnp.concatenate([x[:i], 2 * v[None], x[i + 1:]])", ("i", 1, "2 * v[None]", 1)),
        ("x = jnp.concatenate([x[:(i)], v[None], x[(i) + 1:]])", ("(i)", 1, "v[None]", 1)),
        # not a splice
        ("x = jnp.concatenate([x[:i], jnp.zeros((3, 3)), x[i + 2:]])", None),  # resizes x
        ("x = jnp.concatenate([x[:i], v[None], x[i + 1:]], axis=1)", None),
        ("x = jnp.concatenate([x[:i], v[None], x[j + 1:]])", None),
        ("x = jnp.concatenate([x[:i], v[None], y[i + 1:]])", None),
        ("x = jnp.concatenate([x[:f(i)], v[None], x[f(i) + 1:]])", None),  # a call: twice
        ("x = jnp.concatenate([x[:i], v[None]])", None),
        ("x = jnp.concatenate([x[:i], v[None], x[i:]])", None),
        ("x = jnp.concatenate([x[1:i], v[None], x[i + 1:]])", None),
        ("x = jnp.concatenate([x[:i:2], v[None], x[i + 1:]])", None),
        ("x = jnp.concatenate([x[:i], *vs, x[i + 1:]])", None),
        ("x = np.concatenate([x[:i], v[None], x[i + 1:]])", None),
        ("y = jnp.concatenate([x[:i], v[None], x[i + 1:]])", None),  # another name
    ],
)
def test_find_splice(code: str, found: tuple | None) -> None:
    ctx = context(f"def f(x, v, i, j, y, vs, a, b):\n    {code}\n", HEADER)
    splice = find_splice(ctx, stmt(ctx, code))
    if found is None:
        assert splice is None
        return
    assert splice is not None and splice.name == "x"
    got = (ctx.code(splice.start), splice.rows, ctx.code(splice.value), splice.value_rows)
    assert got == found


def in_range(loop: str, before: str = "", rows: int = 1, after: str = "") -> bool:
    value = "v[None]" if rows == 1 else f"jnp.zeros(({rows}, 3))"
    code = (
        f"N = 8\n\ndef f(x, v, n):\n{before}    for i in {loop}:\n"
        f"        x = jnp.concatenate([x[:i], {value}, x[i + {rows}:]])\n{after}"
    )
    ctx = context(code, HEADER)
    splice = find_splice(ctx, stmt(ctx, "x = jnp.concatenate"))
    assert splice is not None
    return start_in_range(ctx, splice)


@pytest.mark.parametrize(
    ("loop", "before", "rows", "after", "proven"),
    [
        ("range(len(x))", "", 1, "", True),
        ("range(x.shape[0])", "", 1, "", True),
        ("range(1, len(x))", "", 1, "", True),
        ("range(len(x) - 1)", "", 2, "", True),
        ("range(len(x) - 2 + 1)", "", 2, "", True),
        ("range(n)", "    x = jnp.zeros((n, 3))\n", 1, "", True),  # the constructor's size
        ("range(N)", "    x = jnp.zeros((N, 3))\n", 1, "", True),
        # not proven
        ("range(len(x))", "", 2, "", False),  # the last start is out of range
        ("range(len(x) - 1)", "", 3, "", False),
        ("range(len(x) + 1)", "", 1, "", False),
        ("range(-1, len(x))", "", 1, "", False),  # a negative start counts from the end
        ("range(n)", "", 1, "", False),  # no idea how long x is
        ("range(n)", "    x = jnp.zeros((n, 3))\n    n = n + 1\n", 1, "", False),
        ("range(len(x))", "", 1, "        x = x + 1\n", False),  # another writer of x
        ("xs", "", 1, "", False),
        ("range(len(x))", "", 1, "len = 3\n", False),  # not the builtin
    ],
)
def test_start_in_range(loop: str, before: str, rows: int, after: str, proven: bool) -> None:
    assert in_range(loop, before, rows, after) is proven


@pytest.mark.parametrize(
    ("code", "strong"),
    [
        ("x = jnp.zeros(3)", True),
        ("x = jnp.arange(3)", True),
        ("x = jnp.array([1, 2], dtype=jnp.int32)", True),
        ("x = jnp.asarray(y, dtype='float32')", True),
        ("x = jnp.array([1, 2])", False),
        ("x = jnp.full(3, 1.0)", False),
        ("x = jnp.full(3, 1.0, dtype=None)", False),
        ("x = np.zeros(3)", False),
        ("x = f()", False),
        ("x += 1", False),
    ],
)
def test_strongly_typed(code: str, strong: bool) -> None:
    ctx = context(code, HEADER)
    assert strongly_typed(ctx, ctx.graph.stmts[-1]) is strong


ROWS = """
def g():
    return r

def f(k, v, c):
    w = v[None]
    w2 = jnp.zeros((3, 4))
    if c:
        w3 = v[None]
    if c:
        w4 = v[None]
    else:
        w4 = jnp.ones((1, 2))
    m = v[None]
    m[0] = 1
    r = v[None]
    for i in range(4):
        probe(w, w2, w3, w4, m, r, i, k, v)
"""


@pytest.mark.parametrize(
    ("code", "rows"),
    [
        ("v[None]", 1),
        ("v[None, :]", 1),
        ("v[jnp.newaxis, ...]", 1),
        ("v[np.newaxis]", 1),
        ("(v[None])", 1),
        ("jnp.zeros((3, 4))", 3),
        ("jnp.ones(5)", 5),
        ("jnp.full((2, 3), 0)", 2),
        ("np.zeros((2,))", 2),
        ("jnp.array([a, b, c])", 3),
        ("np.asarray([[1, 2]])", 1),
        ("-v[None]", 1),
        ("v[None] * 2", 1),
        ("2.0 * v[None]", 1),
        ("v[None] + i", 1),  # a `range` index is a scalar
        ("w", 1),
        ("w2", 3),
        ("v[None, 0]", None),
        ("v[0]", None),
        ("v", None),
        ("jnp.zeros(n)", None),
        ("jnp.zeros((2, 2), order='C')", None),
        ("jnp.zeros(shape=(2, 2))", None),
        ("jnp.array([*a])", None),
        ("jnp.array([a], ndmin=2)", None),
        ("jnp.array(a)", None),
        ("v[None] + k", None),  # `k` may be an array that broadcasts
        ("v[None] + v", None),
        ("v[None] @ v", None),
        ("w3", None),  # not defined on every path
        ("w4", None),  # no definition dominates the use
        ("m", None),  # mutated
        ("r", None),  # another function reads the name
        ("k", None),
    ],
)
def test_rows_of(code: str, rows: int | None) -> None:
    ctx = context(ROWS, HEADER)
    assert rows_of(ctx, stmt(ctx, "probe("), expr(code)) == rows


def test_rows_of_a_parameter_named_like_an_integer_constant() -> None:
    ctx = context("N = 8\n\ndef f(v, N):\n    probe(v, N)\n", HEADER)
    at = stmt(ctx, "probe(")
    assert rows_of(ctx, at, expr("v[None] * N")) is None  # this `N` may be an array with rows
