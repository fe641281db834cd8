"""Which eager loops can become a step function, and with which names (analysis/plans/step.py)."""

from __future__ import annotations

import textwrap

import pytest

from autoopt.analysis.plans.step import late_lines, step_plan

from ..helpers import HEADER, context

CASES = [
    # (loop code inside `def run(x, w, n):`, params, returns)
    (
        "h = jnp.zeros(3)\nfor t in range(n):\n    y = x[t] @ w\n    h = h + y\nreturn h",
        ("t", "h", "w", "x"),  # within a statement, names in sorted order
        ("h",),
    ),
    (
        "for _ in range(n):\n    d = jnp.sin(x)\n    x = x + d\nreturn x",
        ("x",),
        ("x",),
    ),
    (  # a name of one iteration read after the loop comes back too
        "for _ in range(n):\n    d = jnp.sin(x)\n    x = x + d\nreturn x, d",
        ("x",),
        ("d", "x"),
    ),
    (  # a nested function defined after the loop reads the last iteration's `d`
        "for _ in range(n):\n    d = jnp.sin(x)\n    x = x + d\n"
        "def last():\n    return d\nreturn x, last()",
        ("x",),
        ("d", "x"),
    ),
    (  # a name bound only inside one iteration stays in the step
        "for _ in range(n):\n    a = x * 2\n    b = a + w\n    x = b\nreturn x",
        ("x", "w"),
        ("x",),
    ),
]


def _loop_ctx(body: str):
    lines = "".join(f"    {line}\n" for line in body.splitlines())
    main = "def main():\n    return run(jnp.ones((4, 3)), jnp.eye(3), 4)\n"
    code = f"def run(x, w, n):\n{lines}\n\n{main}"
    return context(code, HEADER)


@pytest.mark.parametrize(("body", "params", "returns"), CASES)
def test_params_and_returns(body: str, params: tuple, returns: tuple) -> None:
    ctx = _loop_ctx(body)
    plan = step_plan(ctx, ctx.graph.loops[0])
    assert plan is not None
    assert (plan.params, plan.returns) == (params, returns)


@pytest.mark.parametrize(
    "body",
    [
        "for _ in range(n):\n    d = jnp.sin(x)\n    print(d)\nreturn x",  # host work
        "for t in range(n):\n    d = jnp.sin(x)\n    t = t + 1\nreturn x",  # rebinds the index
        "for _ in range(n):\n    d = jnp.sin(x)\n    x = x + d\nelse:\n    pass\nreturn x",
        "for _ in range(n):\n    d = jnp.sin(x)\n    x[0] = d\nreturn x",  # item assignment
        "for _ in range(n):\n    d = jnp.sin(y)\n    y = d\nreturn x",  # `y` unbound before
    ],
)
def test_loops_that_are_not_steps(body: str) -> None:
    ctx = _loop_ctx(body)
    assert step_plan(ctx, ctx.graph.loops[0]) is None


def test_one_computing_statement_is_a_single_plan() -> None:
    """One call (appends of names add nothing): marked `single`, which AO103 takes only
    as one scan (rules/loop_owner.py); its step form would be AO101's jit of the call."""
    body = "xs = []\nfor _ in range(n):\n    x = jnp.sin(x)\n    xs.append(x)\nreturn x, xs"
    ctx = _loop_ctx(body)
    plan = step_plan(ctx, ctx.graph.loops[0])
    assert plan is not None and plan.single
    assert (plan.params, plan.returns) == (("x",), ("x",))
    ctx = _loop_ctx("for _ in range(n):\n    d = jnp.sin(x)\n    x = x + d\nreturn x")
    plan = step_plan(ctx, ctx.graph.loops[0])
    assert plan is not None and not plan.single


def test_module_loop_passes_rebound_values_and_reads_the_rest_globally() -> None:
    """`rate` is bound twice (passed); `scale`, bound once before the loop, and the
    function `lap` are read globally (the jit plan checks nothing changes them). Every
    name the step binds comes back: `du` stays a module global that any function or
    importer may read."""
    code = (
        "def lap(u):\n    return jnp.roll(u, 1) - u\n\n"
        "u = jnp.ones(8)\nscale = 2.0\nrate = 0.1\nrate = rate / scale\n"
        "for _ in range(5):\n    du = lap(u)\n    u = u + rate * scale * du\n"
    )
    ctx = context(code, HEADER)
    plan = step_plan(ctx, ctx.graph.loops[0])
    assert plan is not None
    assert (plan.params, plan.returns) == (("u", "rate"), ("du", "u"))


def test_traced_index_doubt_names_a_subscript_of_a_value_not_proven_jax() -> None:
    """A NumPy `x` raises on an out-of-range row where the traced index clamps; a JAX
    `w` clamps the same way eagerly and traced."""
    code = (
        "def run(x, w, n):\n    h = jnp.zeros(3)\n    for t in range(n):\n"
        "        y = x[t] @ w[t]\n        h = h + y\n    return h\n\n\n"
        "def main():\n    return run(np.ones((4, 3)), jnp.ones((4, 3, 3)), 4)\n"
    )
    ctx = context(code, HEADER)
    plan = step_plan(ctx, ctx.graph.loops[0])
    assert plan is not None
    assert plan.doubts == (
        "`x[t]` indexes with the loop index, which the jitted step traces: an out-of-range "
        "index would clamp where this value, not proven a JAX array, may raise",
    )


def test_global_declared_name_is_not_a_step() -> None:
    code = (
        "total = 0.0\n\ndef run(x):\n    global total\n"
        "    for _ in range(3):\n        d = jnp.sin(x)\n        total = total + d\n"
    )
    ctx = context(code, HEADER)
    assert step_plan(ctx, ctx.graph.loops[0]) is None


@pytest.mark.parametrize(
    ("body", "first", "lines"),
    [
        (  # an `if` block begins the body: the lines after it
            "    if t % 5 == 0:\n        print(t)\n    y = jnp.sin(x)\n    x = x + y\n"
            "    print(x)\n",
            "if t % 5 == 0:",
            ["y = jnp.sin(x)", "x = x + y"],
        ),
        (  # a print begins it
            "    print(t)\n    y = jnp.sin(x)\n    x = x + y\n",
            "print(t)",
            ["y = jnp.sin(x)", "x = x + y"],
        ),
    ],
)
def test_late_lines_are_the_first_run_after_the_statement_that_begins_the_body(
    body: str, first: str, lines: list[str]
) -> None:
    ctx = context(_looped(body), HEADER)
    late = late_lines(ctx, ctx.graph.loops[0])
    assert late is not None
    assert ctx.code(late.first).strip().splitlines()[0] == first
    assert [ctx.code(line).strip() for line in late.lines] == lines


@pytest.mark.parametrize(
    "body",
    [
        "    y = jnp.sin(x)\n    x = x + y\n",  # the step begins the body: `step_plan`'s
        "    if t % 5 == 0:\n        print(t)\n    x = x + 1\n",  # one statement after
        "    if t:\n        print(t)\n    y = float(x)\n    x = x + y\n",  # a host value first
    ],
)
def test_no_late_lines(body: str) -> None:
    ctx = context(_looped(body), HEADER)
    assert late_lines(ctx, ctx.graph.loops[0]) is None


def _looped(body: str) -> str:
    """`body` (indented as a function's) as the body of a loop in a function the module
    calls."""
    inner = textwrap.indent(body, "    ")
    return f"def run(x, n):\n    for t in range(n):\n{inner}    return x\n\n\nrun(1.0, 2)\n"
