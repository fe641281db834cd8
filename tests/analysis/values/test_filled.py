"""Lists a function builds empty and fills only by appending, and their values."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.values.filled import filled_lists
from autoopt.analysis.values.lattice import Kind, Value, arrays_in
from autoopt.analysis.values.model import model
from autoopt.analysis.values.mutable import changed_names

HEADER = "import jax\nimport jax.numpy as jnp\n"


def _ctx(body: str) -> ModuleContext:
    code = HEADER + body + "\nparams = init(k)\nprint(params)\n"
    return ModuleContext("<t>", code, cst.parse_module(code))


def _returned(body: str) -> Value:
    ctx = _ctx(body)
    last = ctx.graph.scope_stmts("<module>")[-1]
    return model(ctx).name(last, "params")


_FILLED = """
def init(k):
    params = []
    for n in (3, 4):
        params.append([jax.random.normal(k, (n, n)), jnp.zeros(n)])
    return params
"""
_ARRAYS = """
def init(k):
    params = []
    params.append(jnp.ones(3))
    params.append(jnp.zeros(3))
    return params
"""


def test_a_list_filled_by_appends_is_found_with_its_appends() -> None:
    ctx = _ctx(_FILLED)
    fills = ctx.per_module(filled_lists)
    assert list(fills) == [("init", "params")]
    assert [ctx.code(x) for _, x in fills[("init", "params")]] == [
        "[jax.random.normal(k, (n, n)), jnp.zeros(n)]"
    ]
    assert "params" not in ctx.per_module(changed_names).mutated


@pytest.mark.parametrize(
    ("body", "value"),
    [
        (_FILLED, Value(Kind.PYTREE)),  # lists of arrays appended
        (_ARRAYS, arrays_in("list")),  # arrays appended
    ],
)
def test_a_filled_list_holds_what_is_appended(body: str, value: Value) -> None:
    assert _returned(body) == value


@pytest.mark.parametrize(
    "body",
    [
        # a Python number appended
        "def init(k):\n    params = []\n    params.append(jnp.ones(3))\n"
        "    params.append(3)\n    return params\n",
        # a string appended through an alias of the list
        "def init(k):\n    params = []\n    params.append(jnp.ones(3))\n    layers = params\n"
        "    layers.append('tanh')\n    return params\n",
        # a nested function appends to the same list
        "def init(k):\n    params = []\n    params.append(jnp.ones(3))\n\n"
        "    def more():\n        params.append(3)\n\n    more()\n    return params\n",
        # a callee appends to it
        "def grow(p):\n    p.append(3)\n\n\ndef init(k):\n    params = []\n"
        "    params.append(jnp.ones(3))\n    grow(params)\n    return params\n",
        # an element appended, then changed in place
        "def init(k):\n    params = []\n    row = [jnp.ones(3)]\n    params.append(row)\n"
        "    row.append(3)\n    return params\n",
    ],
)
def test_a_list_that_may_hold_other_values_is_unknown(body: str) -> None:
    assert _returned(body).kind is Kind.UNKNOWN


@pytest.mark.parametrize(
    "body",
    [
        # bound twice
        "def init(k):\n    params = []\n    params.append(jnp.ones(3))\n"
        "    params = []\n    params.append(jnp.ones(3))\n    return params\n",
        # a parameter, not built here
        "def init(k, params=None):\n    params.append(jnp.ones(3))\n    return params\n",
        # built with an element
        "def init(k):\n    params = [jnp.ones(2)]\n    params.append(jnp.ones(3))\n"
        "    return params\n",
        # an item written as well as appended
        "def init(k):\n    params = []\n    params.append(jnp.ones(3))\n"
        "    params[0] = 3\n    return params\n",
        # extended, not appended
        "def init(k):\n    params = []\n    params.extend([jnp.ones(3)])\n    return params\n",
        # appends itself
        "def init(k):\n    params = []\n    params.append(params)\n    return params\n",
    ],
)
def test_other_lists_are_not_filled_lists(body: str) -> None:
    assert ("init", "params") not in _ctx(body).per_module(filled_lists)
