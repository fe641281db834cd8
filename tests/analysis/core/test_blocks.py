"""Statement blocks: neighbours and `try` nesting."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.blocks import collect_blocks

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


COMPOUND = """class C:
    try:
        def m(self):
            n = 1
        class D:
            o = 2
    except E:
        pass
while w:
    p = 3
else:
    q = 4
if a:
    r = 5
elif b:
    s = 6
else:
    t = 7
with ctx() as u:
    v = 8
match x:
    case 1:
        y = 9
    case _:
        z = 10
async def g():
    try:
        async with lock:
            aa = 11
    finally:
        bb = 12
if c: dd = 13
"""


@pytest.mark.parametrize(
    ("line", "previous", "following", "in_try"),
    [
        ("class C:", None, "while w:", False),
        ("def m(self):", None, "class D:", True),
        ("n = 1", None, None, False),  # a method body starts outside the `try` around it
        ("class D:", "def m(self):", None, True),
        ("o = 2", None, None, True),  # a class body does not
        ("pass", None, None, True),
        ("q = 4", None, None, False),
        ("s = 6", None, None, False),
        ("t = 7", None, None, False),
        ("v = 8", None, None, False),
        ("y = 9", None, None, False),
        ("z = 10", None, None, False),
        ("async with lock:", None, None, True),
        ("aa = 11", None, None, True),
        ("bb = 12", None, None, True),
        ("if c: dd = 13", "async def g():", None, False),
    ],
)
def test_every_kind_of_block(line: str, previous: str | None, following: str | None, in_try: bool):
    blocks = collect_blocks(cst.parse_module(COMPOUND))
    [node] = [s for s in blocks.siblings if first_line(s) == line]
    assert first_line(blocks.previous_statement(node)) == previous
    assert first_line(blocks.next_statement(node)) == following
    assert (node in blocks.in_try) is in_try


def test_blocks_are_recorded_in_source_order() -> None:
    """Indented blocks only: an `elif` and the statements of a one-line suite are not
    statements of a block."""
    blocks = collect_blocks(cst.parse_module(COMPOUND))
    assert [first_line(s) for s in blocks.siblings] == [
        "class C:", "while w:", "if a:", "with ctx() as u:", "match x:", "async def g():",
        "if c: dd = 13", "try:", "def m(self):", "class D:", "n = 1", "o = 2", "pass",
        "p = 3", "q = 4", "r = 5", "s = 6", "t = 7", "v = 8", "y = 9", "z = 10", "try:",
        "async with lock:", "aa = 11", "bb = 12",
    ]  # fmt: skip
