"""The value lattice: joins, and what arithmetic gives."""

from __future__ import annotations

import pytest

from autoopt.analysis.values.lattice import (
    ARRAY,
    BOTTOM,
    HOST,
    PYTREE,
    SCALAR,
    UNKNOWN,
    Kind,
    Value,
    combine,
    join_all,
    typed_arithmetic,
    typed_value,
)

ROW = typed_value(Kind.ARRAY, (3,), "float")
MATRIX = typed_value(Kind.ARRAY, (4, 3), "float")


@pytest.mark.parametrize(
    ("values", "joined"),
    [
        ([ARRAY, ARRAY], ARRAY),
        ([ARRAY, PYTREE], PYTREE),
        ([ARRAY, HOST], UNKNOWN),
        ([BOTTOM, ROW], ROW),
        ([ROW, MATRIX], ARRAY),  # shapes differ: only the kind is kept
        ([Value(Kind.SCALAR, True), Value(Kind.SCALAR, False)], SCALAR),
        ([], UNKNOWN),
    ],
)
def test_join(values: list[Value], joined: Value) -> None:
    assert join_all(values) == joined


@pytest.mark.parametrize(
    ("left", "right", "result"),
    [
        (ARRAY, SCALAR, ARRAY),
        (ARRAY, UNKNOWN, ARRAY),  # an array operator gives an array or raises
        (HOST, SCALAR, HOST),
        (SCALAR, SCALAR, SCALAR),
        (PYTREE, SCALAR, UNKNOWN),  # `+` on tuples concatenates
        (BOTTOM, SCALAR, BOTTOM),
    ],
)
def test_combine(left: Value, right: Value, result: Value) -> None:
    assert combine(left, right, modulo=False) == result


@pytest.mark.parametrize(
    ("left", "right", "shape"),
    [
        (ROW, SCALAR, (3,)),  # a Python number neither broadcasts nor promotes
        (MATRIX, ROW, (4, 3)),
        (ROW, typed_value(Kind.ARRAY, (4,), "float"), None),  # does not broadcast
        (ROW, typed_value(Kind.ARRAY, (3,), "float32"), None),  # may promote
    ],
)
def test_typed_arithmetic(left: Value, right: Value, shape: tuple | None) -> None:
    assert typed_arithmetic(ARRAY, left, right).shape == shape
