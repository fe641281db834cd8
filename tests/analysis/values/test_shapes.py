"""Provable rows, rank and dtype of array expressions."""

from __future__ import annotations

import pytest

from autoopt.analysis.values.array_type import DEFAULT_FLOAT, ArrayType
from autoopt.analysis.values.shapes import (
    array_facts,
    assigned_value,
    dtype_name,
    int_literal,
    is_builtin,
    is_range,
    stable_in_loop,
)

from ..helpers import HEADER, context, expr, stmt

SOURCE = """
z = jnp.zeros((4, 3), jnp.int32)
f = jnp.ones((2, 3))
e = jnp.empty((0, 5), dtype="float16")
fl = jnp.full((3,), 1.0)
fl2 = jnp.full((3,), 1.0, jnp.float32)
b = jnp.zeros((2,), bool)
if c:
    two = jnp.zeros(3)
for i in range(5):
    probe(z, f, e, fl, fl2, b, two, i, x)
"""
UNKNOWN = ArrayType()
FLOAT = DEFAULT_FLOAT


def proven(rows: int | None, ndim: int | None, dtype: str | None) -> ArrayType:
    """What the shape facts prove: rows and rank, the full shape not."""
    return ArrayType(dtype=dtype, rows=rows, ndim=ndim)


@pytest.mark.parametrize(
    ("code", "facts"),
    [
        # constructors
        ("z", proven(4, 2, "int32")),
        ("f", proven(2, 2, FLOAT)),
        ("e", proven(0, 2, "float16")),
        ("fl", proven(3, 1, None)),  # `full` takes the fill value's dtype
        ("fl2", proven(3, 1, "float32")),
        ("b", proven(2, 1, None)),  # the builtin `bool` is not proven a dtype
        ("jnp.zeros((n, 3))", proven(None, 2, FLOAT)),
        ("jnp.zeros(())", proven(None, 0, FLOAT)),
        ("jnp.zeros(shape=(2, 2), dtype=jnp.uint8)", proven(2, 2, "uint8")),
        ("jnp.zeros((2, 2), order='C')", UNKNOWN),
        ("jnp.zeros(*s)", UNKNOWN),
        ("jnp.zeros(n)", UNKNOWN),
        ("np.zeros((2, 2))", UNKNOWN),  # NumPy: float64 whatever JAX's default
        # names
        ("two", UNKNOWN),  # not defined on every path
        ("x", UNKNOWN),
        # new leading axes
        ("z[None]", proven(1, 3, "int32")),
        ("z[None, :]", proven(1, 3, "int32")),
        ("z[None, ...]", proven(1, 3, "int32")),
        ("z[0]", UNKNOWN),
        ("z[:, None]", UNKNOWN),
        ("z[None, 0]", UNKNOWN),
        ("jnp.expand_dims(f, 0)", proven(1, 3, FLOAT)),
        ("jnp.expand_dims(f, axis=0)", proven(1, 3, FLOAT)),
        ("jnp.expand_dims(f, 1)", UNKNOWN),
        # arithmetic with Python scalars (weak typing)
        ("-z", proven(4, 2, "int32")),
        ("z * 2", proven(4, 2, "int32")),
        ("z + i", proven(4, 2, "int32")),  # a `range` index is a Python int
        ("z * 2.0", proven(4, 2, None)),  # an int array times a float promotes
        ("z / 2", proven(4, 2, None)),
        ("f * 2.0", proven(2, 2, FLOAT)),
        ("f / 2", proven(2, 2, FLOAT)),
        ("b + 1", proven(2, 1, None)),
        ("z + f", UNKNOWN),
        ("z ** 2", UNKNOWN),
        # reshape, astype
        ("jnp.reshape(f, (3, 2))", proven(3, 2, FLOAT)),
        ("f.reshape(6)", proven(6, 1, FLOAT)),
        ("f.reshape(1, 6)", proven(1, 2, FLOAT)),
        ("f.reshape((-1, 2))", proven(None, 2, FLOAT)),
        ("f.astype(jnp.bfloat16)", proven(2, 2, "bfloat16")),
        ("f.astype('int8')", proven(2, 2, "int8")),
        ("f.astype(x)", proven(2, 2, None)),
        ("x.reshape(2, 3)", UNKNOWN),  # not proven an array: its methods could do anything
        ("f.sum()", UNKNOWN),
    ],
)
def test_array_facts(code: str, facts: ArrayType) -> None:
    ctx = context(SOURCE, HEADER)
    assert array_facts(ctx, stmt(ctx, "probe("), expr(code)) == facts


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("jnp.float32", "float32"),
        ("np.float32", "float32"),
        ("'float32'", "float32"),
        ("jnp.bool_", "bool"),
        ("float", None),
        ("jnp.foo", None),
        ("torch.float32", None),
        ("'f4'", None),
    ],
)
def test_dtype_name(code: str, name: str | None) -> None:
    assert dtype_name(context("", HEADER), expr(code)) == name


@pytest.mark.parametrize(
    ("code", "value"), [("3", 3), ("-3", -3), ("0x10", 16), ("- -2", 2), ("x", None), ("1.0", None)]
)
def test_int_literal(code: str, value: int | None) -> None:
    assert int_literal(expr(code)) == value


def test_assigned_value() -> None:
    ctx = context("a = f(x)\na, b = 1, 2\na += 1\n")
    first, unpack, augmented = ctx.graph.stmts
    assert ctx.code(assigned_value(first, "a")) == "f(x)"
    assert assigned_value(first, "b") is None
    assert assigned_value(unpack, "a") is None
    assert assigned_value(augmented, "a") is None


def test_range_builtins_and_loop_stability() -> None:
    ctx = context("for i in range(3):\n    j = i\nfor k in range(2):\n    k = 0\n")
    assert is_range(ctx, expr("range(3)"))
    assert not is_range(ctx, expr("xrange(3)"))
    assert is_builtin(ctx, expr("len"), "len")
    assert not is_builtin(ctx, expr("len"), "range")
    assert stable_in_loop(ctx, 0, "i")
    assert not stable_in_loop(ctx, 0, "j")
    assert not stable_in_loop(ctx, 1, "k")
    shadowed = context("range = my_range\n")
    assert not is_range(shadowed, expr("range(3)"))
    rebound = context("def f():\n    global i\n    i = 2\nfor i in range(3):\n    pass\n")
    assert not stable_in_loop(rebound, 0, "i")
