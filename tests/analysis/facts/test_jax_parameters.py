"""facts/jax_parameters: which arguments of a JAX call must stay Python values."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.jax_parameters import python_arguments


def _names(qual: str, code: str) -> list[tuple[str, str]]:
    call = cst.parse_expression(code)
    assert isinstance(call, cst.Call)
    return [
        (cst.Module([]).code_for_node(node), name) for node, name in python_arguments(qual, call)
    ]


@pytest.mark.parametrize(
    ("qual", "code", "expected"),
    [
        ("jax.lax.top_k", "top_k(x, k)", [("k", "k")]),
        ("jax.lax.top_k", "top_k(operand=x, k=k, axis=a)", [("k", "k"), ("a", "axis")]),
        ("jax.numpy.polyfit", "polyfit(x, y, d)", [("d", "deg")]),
        ("jax.numpy.power", "power(x, k)", [("k", "x2")]),
        ("jax.numpy.add", "add(a, b)", []),
        ("jax.numpy.exp", "exp(x)", []),  # not listed: takes array data everywhere
        ("jax.numpy.add", "add(a, b, out=o)", [("o", "out")]),
        ("jax.lax.top_k", "top_k(*args)", [("args", "*")]),
        ("jax.numpy.einsum", "einsum(s, *ops)", [("s", "subscripts")]),
        ("jax.lax.top_k", "top_k(x, k, extra)", [("k", "k"), ("extra", "*")]),
        ("jax.lax.top_k", "top_k(x, nope=k)", [("k", "*")]),
    ],
)
def test_python_arguments(qual: str, code: str, expected: list[tuple[str, str]]) -> None:
    assert _names(qual, code) == expected
