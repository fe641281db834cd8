"""Can a `for i in range(...)` loop become `lax.fori_loop` inside one `jit`?

A premise of the loop or its function that fails gives no plan; the two premises
autoopt cannot prove give the plan with their doubt (the rewrite is then unsafe)."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.fori import ForiPlan, fori_plan, loop_carry

from ..helpers import HEADER, context

LINE = "acc = acc.at[i].set(x[i])"
BASE = f"""
def f(x):
    acc = jnp.zeros((4, 3))
    for i in range(x.shape[0]):
        {LINE}
    return acc

y = f(jnp.ones((4, 3)))
"""
CLAMPS = (
    "`{}` indexes with the loop index, which fori_loop traces: "
    "an out-of-range index would clamp where this value, not proven a JAX array, may raise"
)
HOST = "y = f(np.ones((4, 3)))"  # a NumPy `x` raises on an out-of-range row
NOT_ARRAY = "cannot prove the loop-carried `acc` is an array of fixed shape"


def plan(code: str) -> ForiPlan | None:
    ctx = context(code, HEADER)
    return fori_plan(ctx, ctx.graph.loops[0])


def test_the_plan_names_function_index_bounds_and_carry() -> None:
    ctx = context(BASE, HEADER)
    found = fori_plan(ctx, ctx.graph.loops[0])
    assert found is not None
    assert found.fn is ctx.graph.functions["f"] and found.loop is ctx.graph.loops[0]
    assert (found.index, [ctx.code(b) for b in found.bounds]) == ("i", ["x.shape[0]"])
    assert (found.carry, found.doubts) == (("acc",), ())


def edit(old: str, new: str, code: str = BASE) -> str:
    assert old in code
    return code.replace(old, new)


def host(code: str) -> str:
    """`code` calling `f` with a NumPy array."""
    return edit("y = f(jnp.ones((4, 3)))", HOST, code)


def body(new: str, code: str = BASE) -> str:
    """`code` with the loop's line replaced by the lines of `new`."""
    return edit(f"        {LINE}\n", "".join(f"        {line}\n" for line in new.split("\n")), code)


TOT = edit(
    "    acc = jnp.zeros((4, 3))\n", "    acc = jnp.zeros((4, 3))\n    tot = jnp.zeros(())\n"
)


@pytest.mark.parametrize(
    ("code", "carry"),
    [
        pytest.param(edit("range(x.shape[0])", "range(len(x))"), ("acc",), id="len"),
        pytest.param(edit("range(x.shape[0])", "range(1, x.shape[0])"), ("acc",), id="start"),
        pytest.param(body("acc = acc.at[i].set(x[i, 0])"), ("acc",), id="two-indices"),
        pytest.param(body("acc = acc.at[i].add(x[i] * 2.0)"), ("acc",), id="arithmetic"),
        pytest.param(body("t = x[i]\nacc = acc.at[i].set(t)"), ("acc",), id="iteration-local"),
        pytest.param(
            body("acc, tot = acc.at[i].set(x[i]), tot + 1.0", TOT).replace(
                "return acc", "return acc, tot"
            ),
            ("acc", "tot"),
            id="two-carried",
        ),
    ],
)
def test_plans_without_doubts(code: str, carry: tuple[str, ...]) -> None:
    found = plan(code)
    assert found is not None and (found.carry, found.doubts) == (carry, ())


UNKNOWN_CARRY = f"""
def f(x):
    acc = x * 0
    for i in range(x.shape[0]):
        {LINE}
    return jnp.asarray(acc)

y = f(data)
"""


@pytest.mark.parametrize(
    ("code", "doubts"),
    [
        pytest.param(
            edit("range(x.shape[0])", "range(3)", host(BASE)),
            [CLAMPS.format("x[i]")],
            id="not-x-length",
        ),
        pytest.param(
            body("acc = acc.at[i].set(x[i - 1])", host(BASE)),
            [CLAMPS.format("x[i - 1]")],
            id="shifted-index",
        ),
        pytest.param(  # JAX clamps a Python index as it clamps a traced one
            body("acc = acc.at[i].set(x[i - 1])"), [], id="jax-array-clamps-alike"
        ),
        pytest.param(UNKNOWN_CARRY, [NOT_ARRAY], id="unknown-carry"),  # `data` is unknown
        pytest.param(
            edit("range(x.shape[0])", "range(4)", UNKNOWN_CARRY),
            [CLAMPS.format("x[i]"), NOT_ARRAY],
            id="both",
        ),
        pytest.param(
            edit("f(data)", "f(jnp.ones((4, 3)))", UNKNOWN_CARRY), [], id="array-at-every-call"
        ),
        pytest.param(
            body("j = i + 1\nacc = acc.at[i].set(x[j])", host(BASE)),
            [CLAMPS.format("x[j]")],
            id="derived-index",
        ),
        pytest.param(
            body("j = i\nk = j * 2\nacc = acc.at[k].set(x[j])", host(BASE)),
            [CLAMPS.format("x[j]")],
            id="derived-twice",
        ),
    ],
)
def test_doubts(code: str, doubts: list[str]) -> None:
    found = plan(code)
    assert found is not None and list(found.doubts) == doubts


METHOD = f"""
class C:
    def f(self, x):
        acc = jnp.zeros((4, 3))
        for i in range(x.shape[0]):
            {LINE}
        return acc
"""


@pytest.mark.parametrize(
    "code",
    [
        # the loop
        pytest.param(f"acc = jnp.zeros(3)\nfor i in range(3):\n    {LINE}\n", id="module-loop"),
        pytest.param(body(f"for j in range(2):\n    {LINE}"), id="nested-loop"),
        pytest.param(edit("range(x.shape[0])", "x"), id="not-range"),
        pytest.param(edit("range(x.shape[0])", "range(0, x.shape[0], 2)"), id="range-step"),
        pytest.param(edit("range(x.shape[0])", "range(*x.shape)"), id="range-star"),
        pytest.param(
            body(f"{LINE}\nelse:\n    acc = acc * 2").replace("    else", "else"), id="for-else"
        ),
        # the body: plain assignments only
        pytest.param(body(f"{LINE}\nprint(acc)"), id="print"),
        pytest.param(body("acc += x[i]"), id="augmented"),
        pytest.param(body("acc[i] = x[i]"), id="subscript-target"),
        pytest.param(body(f"if i:\n    {LINE}"), id="if"),
        # the function: jit must trace it as a whole
        pytest.param(edit("def f(x):", "@jax.jit\ndef f(x):"), id="decorated"),
        pytest.param(METHOD, id="method"),
        pytest.param(edit("    return acc", "    print(acc)\n    return acc"), id="impure"),
        pytest.param(
            edit(
                "def f",
                "W = jnp.ones(3)\nW = W * 2\n\ndef f",
                body("acc = acc.at[i].set(x[i] * W)"),
            ),
            id="reads-module-state",
        ),
        pytest.param(
            edit("    return acc", "    def g():\n        return acc\n    return acc"),
            id="captured",
        ),
        pytest.param(edit("    return acc", "    yield acc"), id="generator"),
        pytest.param(
            edit(
                "f(jnp.ones((4, 3)))",
                "f(jnp.ones((4, 3)), 4)",
                edit("def f(x)", "def f(x, n)", edit("range(x.shape[0])", "range(n)")),
            ),
            id="static-argument",
        ),
        pytest.param(
            edit("    for i", "    if x.sum() > 0:\n        x = -x\n    for i"),
            id="traced-control-flow",
        ),
        pytest.param(edit("    return acc", "    return acc, 1"), id="returns-a-python-value"),
        # the index and the carry
        pytest.param(body(f"i = 2\n{LINE}"), id="index-rebound"),
        pytest.param(body("tmp = x[i]"), id="no-carry"),
        pytest.param(edit("    return acc", "    return acc + i"), id="index-read-after"),
        pytest.param(body("acc = acc.at[i].set(t)\nt = x[i]"), id="read-before-write"),
        pytest.param(
            edit("    return acc", "    return acc + t", body("t = x[i]\nacc = acc.at[i].set(t)")),
            id="local-read-after",
        ),
        pytest.param(body("acc = acc.at[i].set(x[:i].sum(0))"), id="index-as-slice-bound"),
        pytest.param(body("acc = acc.at[i].set(i)"), id="index-as-value"),
        pytest.param(
            body("j = i + 1\nacc = acc.at[i].set(x[:j].sum(0))"), id="derived-slice-bound"
        ),
        pytest.param(body("j = i + 1\nacc = acc.at[i].set(j)"), id="derived-as-value"),
    ],
)
def test_no_plan(code: str) -> None:
    assert plan(code) is None


@pytest.mark.parametrize(
    ("body", "carry"),
    [
        ("a = a + 1\nb = a\n", ("a",)),  # `b` lives in one iteration
        ("b = a\na = b + 1\n", ("a",)),
        ("a = b + 1\nb = a\n", None),  # `b` read before its write, never bound before
        ("b = 1\na = a + b\n", ("a",)),
    ],
)
def test_loop_carry(body: str, carry: tuple[str, ...] | None) -> None:
    lines = "".join(f"        {line}\n" for line in body.splitlines())
    ctx = context(f"def f(x):\n    a = x\n    for i in range(3):\n{lines}    return a\n")
    loop = ctx.graph.loops[0]
    assert loop_carry(ctx, loop, ctx.graph.loop_stmts(loop.id), "i") == carry
