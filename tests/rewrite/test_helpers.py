"""Where a generated helper goes, and the blank lines around it."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.model import InsertBefore
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.helpers import (
    at_update,
    donating_helper,
    rows_update,
    slice_update,
    spaced,
    splice_update,
    top_statement,
)

from ..analysis.helpers import context, head, stmt

NESTED = """
import jax

for i in range(3):
    while i:
        a = i

def outer():
    def inner():
        b = 1
    c = 2

class K:
    def m(self):
        d = 3
"""


@pytest.mark.parametrize(
    ("inner", "top"),
    [
        ("a = i", "for i in range(3):"),  # the outermost loop
        ("while i:", "for i in range(3):"),
        ("b = 1", "def outer():"),  # the outermost function
        ("c = 2", "def outer():"),
        ("d = 3", "class K:"),  # a method: above its class
    ],
)
def test_top_statement(inner: str, top: str) -> None:
    ctx = context(NESTED)
    found = top_statement(ctx, stmt(ctx, inner))
    assert ctx.graph.by_node[found] is stmt(ctx, top)
    assert head(ctx, ctx.graph.by_node[found]) == top


HELPER = cst.parse_statement("def helper(x):\n    return x\n")


def insert_helper(source: str, inner: str) -> str:
    ctx = context(source)
    anchor = top_statement(ctx, stmt(ctx, inner))
    return apply_edits(ctx.module, [InsertBefore(anchor, (spaced(ctx, HELPER, anchor),))]).code


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            "import jax\n\nfor i in range(3):\n    a = i\n",
            "import jax\n\n\ndef helper(x):\n    return x\n\n\nfor i in range(3):\n    a = i\n",
            id="two-blank-lines-around",
        ),
        pytest.param(
            "import jax\ndef f():\n    a = 2\n",
            "import jax\n\n\ndef helper(x):\n    return x\n\n\ndef f():\n    a = 2\n",
            id="no-blank-line-above-the-anchor",
        ),
        pytest.param(
            "def f():\n    a = 2\n",
            "def helper(x):\n    return x\n\n\ndef f():\n    a = 2\n",
            id="first-statement-of-the-module",
        ),
        pytest.param(
            "import jax\n\n\n# note\ndef f():\n    a = 2\n",
            "import jax\n\n\n# note\ndef helper(x):\n    return x\n\n\ndef f():\n    a = 2\n",
            id="the-helper-takes-over-the-comment-above-its-anchor",
        ),
        pytest.param(
            "import jax\n\n\n\ndef f():\n    a = 2\n",
            "import jax\n\n\ndef helper(x):\n    return x\n\n\ndef f():\n    a = 2\n",
            id="two-blank-lines-below-imports-as-isort-wants",
        ),
    ],
)
def test_spaced_helpers_follow_pep8(source: str, expected: str) -> None:
    assert insert_helper(source, "a = ") == expected


def test_a_helper_in_a_block_has_empty_blank_lines() -> None:
    source = "import jax\n\nif c:\n    x = 1\n    for i in range(3):\n        x = x + i\n"
    assert insert_helper(source, "x = x + i") == (
        "import jax\n\nif c:\n    x = 1\n\n    def helper(x):\n        return x\n\n"
        "    for i in range(3):\n        x = x + i\n"
    )


DONATING = (
    "import functools\n\nimport jax\nimport jax.numpy as jnp\n\nfor i in range(3):\n    a = i\n"
)
DECORATOR = '@functools.partial(jax.jit, donate_argnames=("array",))\n'
DUS = "jax.lax.dynamic_update_slice_in_dim"


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        pytest.param(
            lambda ctx: at_update("add"),
            "def x_helper(array, index, value):\n    return array.at[index].add(value)\n",
            id="at-update",
        ),
        pytest.param(
            lambda ctx: at_update("set", ":, index[0], index[1]"),
            "def x_helper(array, index, value):\n"
            "    return array.at[:, index[0], index[1]].set(value)\n",
            id="at-update-static-elements-kept",
        ),
        pytest.param(
            lambda ctx: at_update("multiply", "::2", indexed=False),
            "def x_helper(array, value):\n    return array.at[::2].multiply(value)\n",
            id="at-update-nothing-passed",
        ),
        pytest.param(
            slice_update,
            "def x_helper(array, start, value):\n"
            f"    return {DUS}(\n        array, jnp.asarray(value, array.dtype), start, 0\n    )\n",
            id="slice-wrapped-at-88-columns",
        ),
        pytest.param(
            splice_update,
            "def x_helper(array, start, value):\n    dtype = jnp.result_type(array, value)\n"
            "    array, value = array.astype(dtype), value.astype(dtype)\n"
            f"    return {DUS}(array, value, start, 0)\n",
            id="splice",
        ),
        pytest.param(
            rows_update,
            "def x_helper(array, start, rows):\n"
            "    if rows.shape[1:] != array.shape[1:]:\n"
            '        raise TypeError(f"rows of shape {rows.shape} do not fit shape '
            '{array.shape}")\n'
            f"    return {DUS}(array, rows, start, 0)\n",
            id="rows",
        ),
    ],
)
def test_donating_helpers(form, expected: str) -> None:
    ctx = context(DONATING)
    anchor = top_statement(ctx, stmt(ctx, "a = i"))
    definition, required = donating_helper(ctx, "x_helper", form(ctx), anchor)
    code = apply_edits(ctx.module, [InsertBefore(anchor, (definition,))]).code
    assert code == DONATING.replace("\nfor", f"\n\n{DECORATOR}{expected}\n\nfor")
    assert required == ()  # the module binds all it spells


def test_a_donating_helper_spells_and_imports_what_the_module_lacks() -> None:
    ctx = context("import numpy as np\n\nfor i in range(3):\n    a = i\n")
    anchor = top_statement(ctx, stmt(ctx, "a = i"))
    definition, required = donating_helper(ctx, "x_helper", rows_update(ctx), anchor)
    assert ctx.module.code_for_node(definition.decorators[0]) == (
        '@functools.partial(jax.jit, donate_argnames=("array",))\n'
    )
    assert sorted(r.module for r in required) == ["functools", "jax", "jax"]
