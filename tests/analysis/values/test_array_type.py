"""The one description of an array: its rendering, the default dtypes, partial shapes."""

from __future__ import annotations

import pytest

from autoopt.analysis.values.array_type import DEFAULT_FLOAT, DEFAULT_INT, ArrayType, dtype_text
from autoopt.analysis.values.lattice import Kind, Value, typed_value


@pytest.mark.parametrize(
    ("array", "text"),
    [
        (ArrayType((40,), "float32"), "float32[40]"),
        (ArrayType((27, 3), DEFAULT_FLOAT), "default-float[27,3]"),
        (ArrayType((5,), DEFAULT_INT, host=True), "default-int[5]"),
        (ArrayType((), "bool"), "bool[]"),
        (ArrayType((2, 2), None), "unknown-dtype[2,2]"),
        # a shape proven only in part: rows and rank, rank alone, rows alone, nothing
        (ArrayType(dtype="float32", rows=4, ndim=2), "float32[4,?]"),
        (ArrayType(dtype=DEFAULT_FLOAT, ndim=3), "default-float[?,?,?]"),
        (ArrayType(dtype="bool", rows=1), "bool[1,...]"),
        (ArrayType(ndim=0), "unknown-dtype[]"),
        (ArrayType(), "unknown-dtype[...]"),
    ],
)
def test_describe(array: ArrayType, text: str) -> None:
    assert array.describe() == text


@pytest.mark.parametrize(
    ("dtype", "prose", "in_type"),
    [
        (DEFAULT_FLOAT, "the default float", "default-float"),
        (DEFAULT_INT, "the default int", "default-int"),
        ("float32", "float32", "float32"),
        (None, "an unknown dtype", "unknown-dtype"),
    ],
)
def test_dtype_text(dtype: str | None, prose: str, in_type: str) -> None:
    assert dtype_text(dtype) == prose
    assert dtype_text(dtype, in_type=True) == in_type


def test_one_default_float_marker_is_no_dtype_name() -> None:
    assert DEFAULT_FLOAT == "float" and DEFAULT_INT == "int"
    assert ArrayType((3,), DEFAULT_FLOAT) != ArrayType((3,), "float32")


def test_partial_shapes_are_not_full_ones() -> None:
    """Rows and rank proven differ from the full shape proven, and from each other."""
    assert ArrayType(rows=4, ndim=2) != ArrayType((4, 3))
    assert ArrayType(rows=4, ndim=2) != ArrayType(rows=4)
    assert ArrayType(rows=4, ndim=2) == ArrayType(rows=4, ndim=2)


def test_values_carry_the_description() -> None:
    """A value's shape and dtype are its `ArrayType`'s; a NumPy array's lives on the host,
    and a value with neither known equals the plain one."""
    row = typed_value(Kind.ARRAY, (3,), DEFAULT_FLOAT)
    assert row.array == ArrayType((3,), DEFAULT_FLOAT)
    assert (row.shape, row.dtype, row.typed) == ((3,), DEFAULT_FLOAT, True)
    assert typed_value(Kind.HOST_ARRAY, dtype="float32").array == ArrayType(
        dtype="float32", host=True
    )
    assert typed_value(Kind.ARRAY) == Value(Kind.ARRAY)
    assert typed_value(Kind.ARRAY, dtype="float32").typed is False
    assert row.join(typed_value(Kind.ARRAY, (3,), "float32")) == Value(Kind.ARRAY)
