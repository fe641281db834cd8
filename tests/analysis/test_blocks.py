"""Statement blocks: neighbours and `try` nesting."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.blocks import collect_blocks

SOURCE = """a = 1
try:
    b = 2
    def f():
        c = 3
        try:
            d = 4
        except E:
            e = 5
    g = 6
except E:
    h = 7
finally:
    k = 8
for i in r:
    m = 9
"""


def first_line(node: cst.CSTNode | None) -> str | None:
    if node is None:
        return None
    return cst.Module([]).code_for_node(node).strip().splitlines()[0]


@pytest.mark.parametrize(
    ("line", "previous", "following", "in_try"),
    [
        ("a = 1", None, "try:", False),
        ("b = 2", None, "def f():", True),
        ("def f():", "b = 2", "g = 6", True),
        ("g = 6", "def f():", None, True),
        ("c = 3", None, "try:", False),  # a function body starts outside any `try`
        ("d = 4", None, None, True),
        ("e = 5", None, None, True),
        ("h = 7", None, None, True),
        ("k = 8", None, None, True),
        ("for i in r:", "try:", None, False),
        ("m = 9", None, None, False),
    ],
)
def test_neighbours_and_try(line: str, previous: str | None, following: str | None, in_try: bool):
    blocks = collect_blocks(cst.parse_module(SOURCE))
    [node] = [s for s in blocks.siblings if first_line(s) == line]
    assert first_line(blocks.previous_statement(node)) == previous
    assert first_line(blocks.next_statement(node)) == following
    assert (node in blocks.in_try) is in_try


def test_a_statement_outside_the_module_has_no_neighbours() -> None:
    blocks = collect_blocks(cst.parse_module(SOURCE))
    stranger = cst.parse_statement("x = 1\n")
    assert blocks.next_statement(stranger) is None
    assert blocks.previous_statement(stranger) is None
