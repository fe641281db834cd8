"""Provable Python integers: literals, integer module constants, `range` indices."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.values import ints
from autoopt.analysis.values.ints import builtin, int_constant, is_int, module_constant, range_loop

from ..helpers import HEADER, context, expr, stmt

SOURCE = """
N = 8
F = 0.5
S = "x"
R = 3
R = 4
G = 2
M = jnp.ones(2)
L = 5
L.append(1)

def bump():
    global G
    G = 5

def f(n, xs):
    K = 1
    for i in range(n):
        for j in range(K):
            probe(i, j, n, N, K)
    for k in range(3):
        k = k + 1
        probe(k)
    for e in xs:
        probe(e)

probe(N)
"""


@pytest.mark.parametrize(
    ("code", "integer"),
    [
        ("3", True),
        ("-3", True),
        ("i", True),
        ("j", True),
        ("i + 2 * j", True),
        ("i % 2 - N // 3", True),
        ("-i", True),
        ("N", True),
        ("i / 2", False),  # true division gives a float
        ("i ** 2", False),
        ("+i", False),
        ("n", False),  # a parameter
        ("K", False),  # a local, not a module constant
        ("F", False),
        ("G", False),  # rebound through `global`
        ("len(x)", False),
    ],
)
def test_is_int(code: str, integer: bool) -> None:
    ctx = context(SOURCE, HEADER)
    assert is_int(ctx, stmt(ctx, "probe(i, j"), expr(code)) is integer


@pytest.mark.parametrize(
    ("name", "literal"),
    [
        ("N", "8"),
        ("F", "0.5"),
        ("S", '"x"'),
        ("R", None),  # bound twice
        ("G", None),  # rebound by a function
        ("M", None),  # not a literal
        ("L", None),  # mutated
        ("Z", None),  # not bound
    ],
)
def test_module_constant(name: str, literal: str | None) -> None:
    ctx = context(SOURCE, HEADER)
    value = module_constant(ctx, name)
    assert (None if value is None else ctx.code(value)) == literal


def test_int_constant_needs_an_integer_the_scope_does_not_shadow() -> None:
    ctx = context(SOURCE, HEADER)
    inside = stmt(ctx, "probe(i, j")
    assert int_constant(ctx, inside, "N")
    assert int_constant(ctx, stmt(ctx, "probe(N)", MODULE), "N")
    assert not int_constant(ctx, inside, "F")
    shadowed = context("N = 8\n\ndef f():\n    N = 2\n    probe(N)\n")
    assert not int_constant(shadowed, stmt(shadowed, "probe(N)"), "N")


@pytest.mark.parametrize(
    ("code", "constant"),
    [
        ("def f(v, N):\n    probe(v, N)\n", False),  # a parameter named like the constant
        ("def f(v, *, N=2):\n    probe(v, N)\n", False),
        ("def f(v, N):\n    def g():\n        probe(v, N)\n", False),  # the outer parameter
        ("def f(v):\n    N = 2\n    def g():\n        probe(v, N)\n", False),  # outer local
        ("def f(v, n):\n    probe(v, N)\n", True),
    ],
)
def test_int_constant_is_not_a_name_an_enclosing_function_binds(code: str, constant: bool) -> None:
    ctx = context("N = 8\n\n" + code, HEADER)
    assert int_constant(ctx, stmt(ctx, "probe("), "N") is constant


def test_range_loop() -> None:
    ctx = context(SOURCE, HEADER)
    inside = stmt(ctx, "probe(i, j")
    assert range_loop(ctx, inside, "i") is ctx.graph.loops[0]
    assert range_loop(ctx, inside, "j") is ctx.graph.loops[1]
    assert range_loop(ctx, inside, "n") is None
    assert range_loop(ctx, stmt(ctx, "probe(k)"), "k") is None  # the body rebinds it
    assert range_loop(ctx, stmt(ctx, "probe(e)"), "e") is None  # not a range
    hidden = context("range = my_range\nfor i in range(3):\n    probe(i)\n")
    assert range_loop(hidden, stmt(hidden, "probe(i)"), "i") is None


@pytest.mark.parametrize(
    ("name", "is_builtin"),
    [("range", True), ("len", True), ("jnp", False), ("n", False), ("K", False)],
)
def test_builtin(name: str, is_builtin: bool) -> None:
    assert builtin(context(SOURCE, HEADER), name) is is_builtin


@pytest.mark.parametrize(
    ("code", "proven"),
    [
        ("def f(t):\n    return t\ny = f(0.5)\n", True),
        ("def f(t):\n    return t\ny = f(1 / 3)\nz = f(2.0 * 4)\n", True),
        ("def f(t):\n    return t\nDT = 0.1\ny = f(DT)\n", True),
        ("def f(t):\n    return t\ndef g(s):\n    return f(s)\ny = g(float(3))\n", True),
        ("def f(t):\n    return t\ny = f(0.5)\nz = f(3)\n", False),
        ("def f(t):\n    return t\n", False),  # no call: nothing proves it
        ("def f(t):\n    return t\nfor i in range(3):\n    y = f(i)\n", False),
        ("def f(t=0.5):\n    return t\ny = f()\n", True),  # the default
        ("def f(t=1):\n    return t\ny = f()\n", False),
        ("def f(t):\n    return t\ndef g():\n    s = 0.0\n    s += DT\n    f(s)\nDT = 0.1\n", True),
        ("def f(t):\n    return t\ndef g():\n    s = 0\n    s += 1\n    f(s)\n", False),
    ],
)
def test_float_parameter(code: str, proven: bool) -> None:
    ctx = context(code)
    assert ints.float_parameter(ctx, ctx.graph.functions["f"], "t") is proven


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("for t in range(300):\n    y = t + D\n", (7, 306)),
        ("for t in range(2, N):\n    y = t * 3 - 1\n", (5, 20)),
        ("for t in range(N):\n    y = -t % 5\n", (0, 4)),
        ("for t in range(N):\n    for j in range(t):\n        y = j + t\n", (0, 13)),
        ("for t in range(N):\n    y = t ** 2\n", None),  # powers are not bounded
        # `n` is unknown: counting from 0, `t` leaves int32 only after 2**31 iterations
        ("for t in range(n):\n    y = t + 1\n", (1, 2**31)),
        ("for t in range(n, 9):\n    y = t + 1\n", None),  # an unknown start is not counted
        ("for t in range(0, n, 2):\n    y = t + 1\n", None),  # nor a stride
        ("def g():\n    m = N - 1\n    y = m * 2\n", (14, 14)),  # a local bound once
        ("def g():\n    m = N - 1\n    m += 1\n    y = m * 2\n", None),  # ...and changed
        ("for t in range(N):\n    t = t * 2\n    y = t + 1\n", None),  # the body rebinds `t`
        ("for t in range(N):\n    y = t + R\n", None),  # `R` is bound twice
    ],
)
def test_bounds(code: str, found: tuple[int, int] | None) -> None:
    ctx = context(f"D = 7\nN = 8\nR = 1\nR = 2\nn = int(input())\n{code}")
    target = stmt(ctx, "y =")
    assert ints.bounds(ctx, target, target.node.value, {}) == found


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("for i in range(100):\n    y = f(i)\n", (0, 99)),
        ("for i in range(100):\n    y = f(i)\nz = f(-5)\n", (-5, 99)),
        ("for i in range(100):\n    y = f(i * 1000)\n", (0, 99000)),
        ("y = f(int(input()))\n", None),
        ("", None),  # no call: nothing proves it
    ],
)
def test_parameter_bounds(code: str, found: tuple[int, int] | None) -> None:
    ctx = context(f"def f(t):\n    return t\n{code}")
    assert ints.parameter_bounds(ctx, ctx.graph.functions["f"], "t") == found


def test_within_int32() -> None:
    assert ints.within((0, 2**31 - 1)) and not ints.within((0, 2**31))
    assert not ints.within(None) and ints.within((-(2**31), 0))


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("    i = 0\n    while i < N:\n        y = i + 1\n        i += 1\n", (1, 10)),
        ("    i = 2\n    while i <= N:\n        i += 3\n        y = i\n", (2, 11)),
        ("    i = 0\n    while i < N:\n        i += 1\n        i += 2\n        y = i\n", (0, 11)),
        ("    i = 0\n    while i < N:\n        y = i\n        i = i * 2\n", None),  # not a step
        (
            "    i = 0\n    while i < N:\n        for j in range(3):\n"
            "            i += 1\n        y = i\n",
            None,
        ),  # stepped by an inner loop: many times an iteration
        ("    i = n\n    while i < N:\n        y = i\n        i += 1\n", None),  # unknown start
        ("    i = 0\n    while i < n:\n        y = i\n        i += 1\n", None),  # unknown stop
        ("    i = 0\n    while N > i:\n        y = i\n        i += 1\n", None),  # not read
    ],
)
def test_while_counter_bounds(body: str, found: tuple[int, int] | None) -> None:
    ctx = context(f"N = 8\nn = int(input())\ndef f():\n{body}")
    target = stmt(ctx, "y =")
    assert ints.bounds(ctx, target, target.node.value, {}) == found


def test_a_counter_another_function_rebinds_is_not_bounded() -> None:
    code = "def f():\n    i = 0\n    def g():\n        nonlocal i\n        i = 10**12\n"
    code += "    while i < 8:\n        g()\n        y = i\n        i += 1\n"
    ctx = context(code)
    target = stmt(ctx, "y =")
    assert ints.bounds(ctx, target, target.node.value, {}) is None
