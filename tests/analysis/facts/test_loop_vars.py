"""Who writes and who reads one variable in one loop."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts import loop_vars as loops

from ..helpers import HEADER, context, stmt

SOURCE = """
def f(x, n):
    acc = jnp.zeros(3)
    for i in range(n):
        acc = acc + x[i]
        m = len(acc) + acc.shape[0]
        k = acc.sum()
    return acc

def reader():
    return acc * 2

def writer():
    global acc
    acc = 0
"""


def test_other_readers_and_only_writer() -> None:
    ctx = context(SOURCE, HEADER)
    loop, update = ctx.graph.loops[0], stmt(ctx, "acc = acc + x[i]")
    readers = loops.other_readers(ctx, loop, "acc", update)
    assert [ctx.code(s.node) for s in readers] == ["m = len(acc) + acc.shape[0]", "k = acc.sum()"]
    assert loops.only_writer(ctx, loop, "acc", update)
    assert not loops.only_writer(ctx, loop, "m", update)
    assert not loops.only_writer(ctx, loop, "i", update)  # the `for` target


@pytest.mark.parametrize(
    ("code", "only"),
    [
        ("for i in r:\n    a = f(a)\n    a.append(1)\n", False),  # mutated too
        ("for a in r:\n    a = f(a)\n", False),  # the header binds it
        ("for i in r:\n    a = f(a)\n    b = a\n", True),
    ],
)
def test_only_writer(code: str, only: bool) -> None:
    ctx = context(code)
    assert loops.only_writer(ctx, ctx.graph.loops[0], "a", stmt(ctx, "a = f(a)")) is only


def test_functions_reading_or_rebinding_a_name() -> None:
    ctx = context(SOURCE, HEADER)
    assert loops.function_reading(ctx, "f", "acc") == "reader"  # a free variable
    assert loops.function_reading(ctx, "reader", "acc") == "writer"  # `global acc`
    assert loops.function_reading(ctx, "f", "x") is None
    assert loops.rebinds_outside(ctx, "writer", "acc")
    assert not loops.rebinds_outside(ctx, "f", "acc")
    assert not loops.rebinds_outside(ctx, "<module>", "acc")


@pytest.mark.parametrize(
    ("code", "entry"),
    [
        ("a = 0\nfor i in r:\n    a = f(a)\n", "a = 0"),
        ("a = 0\nif c:\n    a = 1\nfor i in r:\n    a = f(a)\n", None),  # two reach it
        ("if c:\n    a = 0\nfor i in r:\n    a = f(a)\n", None),  # not on every path
        ("for i in r:\n    a = f(a)\n", None),
    ],
)
def test_entry_def(code: str, entry: str | None) -> None:
    ctx = context(code)
    found = loops.entry_def(ctx, ctx.graph.loops[0], "a", stmt(ctx, "a = f(a)"))
    assert (None if found is None else ctx.code(found.node)) == entry


@pytest.mark.parametrize(
    ("code", "at", "name", "only_shape"),
    [
        ("m = len(a) + a.shape[0] + a.ndim", "m = ", "a", True),
        ("m = a.dtype, a.size", "m = ", "a", True),
        ("k = a.sum()", "k = ", "a", False),
        ("m = len(a) + a[0]", "m = ", "a", False),
        ("for i in range(len(a)):\n    pass", "for i", "a", True),  # a header: its `iter`
        ("for i in range(n):\n    pass", "for i", "n", False),
        ("len = f\nm = len(a)", "m = ", "a", False),  # not the builtin
        ("if len(a):\n    pass", "if len", "a", False),  # other compound statements: no
    ],
)
def test_reads_only_shape(code: str, at: str, name: str, only_shape: bool) -> None:
    ctx = context(code)
    assert loops.reads_only_shape(ctx, stmt(ctx, at), name) is only_shape
