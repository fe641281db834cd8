"""Where a generated helper goes, and the blank lines around it."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.model import InsertBefore
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.helpers import spaced, top_statement

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
            "import jax\n\n\n\ndef helper(x):\n    return x\n\n\ndef f():\n    a = 2\n",
            id="more-blank-lines-are-kept",
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
