"""What tracing a function needs: static arguments, and Python control flow on traced values."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts import tracing

from ..helpers import HEADER, context


def facts(code: str) -> tracing.TraceFacts:
    ctx = context(code, HEADER)
    return tracing.analyse(ctx, ctx.graph.functions["f"])


@pytest.mark.parametrize(
    ("code", "static"),
    [
        ("def f(x, n):\n    return jnp.zeros(n) + x\n", {"n": "the shape in `jnp.zeros`"}),
        ("def f(x, n):\n    return x[:n]\n", {"n": "a slice bound"}),
        ("def f(x, k):\n    return jnp.sum(x, axis=k)\n", {"k": "`axis=`"}),
        ("def f(x, k):\n    return jnp.sum(x, k)\n", {"k": "an option of `jnp.sum`"}),
        ("def f(x, k):\n    return x.reshape(k, -1)\n", {"k": "the argument of `.reshape()`"}),
        ("def f(x, d):\n    return x.astype(d)\n", {"d": "the argument of `.astype()`"}),
        ("def f(x, s):\n    return x * 2 if s == 'a' else x\n", {"s": "a conditional expression"}),
        (
            "def f(x, n):\n    for _ in range(n):\n        x = x * 2\n    return x\n",
            {"n": "`range()`"},
        ),
        ("def f(x, i):\n    return x.shape[i]\n", {"i": "an index into `x.shape`"}),
        (
            "def f(x, t):\n    return x + {0: 0.1, 1: 0.2}.get(t % 2, 0.3)\n",
            {"t": "a key looked up in `{0: 0.1, 1: 0.2}`"},
        ),
        ("def f(x, t):\n    return x * (t in SEEN)\n", {"t": "a key looked up in `SEEN`"}),
        ("def f(x, t):\n    return x * [1, 2].count(t)\n", {"t": "a key looked up in `[1, 2]`"}),
        ("def f(x, t):\n    return x * (t in jnp.arange(3))\n", {}),  # array code
        ("def f(x, t):\n    return x * CFG.get('gain', 1.0) + t\n", {}),  # a constant key
        ("def f(x, a):\n    return x * 2.0 + a\n", {}),  # `a` may be traced
        ("def f(x):\n    return jnp.roll(x, 1)\n", {}),
    ],
)
def test_static_needs(code: str, static: dict[str, str]) -> None:
    assert facts(code).static == static


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("def f(x):\n    if x.sum() > 0:\n        return x\n    return -x\n", "an `if` condition"),
        ("def f(x):\n    return float(x)\n", "`float()`"),
        ("def f(x, r):\n    return x / max(jnp.linalg.norm(x), r)\n", "`max()`"),
        ("def f(x):\n    return x.item()\n", "`.item()`"),
        ("def f(x):\n    while x.sum() > 1:\n        x = x / 2\n    return x\n", "a `while`"),
    ],
)
def test_traced_control_flow(code: str, why: str) -> None:
    reasons = facts(code + "y = f(jnp.ones(3))\n").traced_control
    assert reasons and reasons[0].startswith(why)


def test_a_key_lookup_of_an_array_argument_is_traced_control() -> None:
    reasons = facts("def f(x):\n    return {0: 1.0}.get(x, 2.0)\ny = f(jnp.ones(()))\n")
    assert reasons.traced_control == [
        "a key looked up in `{0: 1.0}` depends on the array argument `x`"
    ]


def test_shape_reads_stay_concrete() -> None:
    code = "def f(x):\n    if x.shape[0] > 2:\n        return x\n    return jnp.zeros(len(x))\n"
    assert (facts(code).static, facts(code).traced_control) == ({}, [])


_CAST = "jnp.asarray(d, dtype=x.dtype)"
_CAST_INT = "jnp.asarray(d, jnp.int32)"


@pytest.mark.parametrize(
    ("code", "float_math"),
    [
        ("def f(e, x, d):\n    return d * e + (1 - d) * x\n", {"d": "(1 - d)"}),
        ("def f(e, x, d):\n    k = 1.0 - d\n    return k * x\n", {"d": "1.0 - d"}),
        ("def f(e, x, d):\n    return e - d * x\n", {}),  # `d * x` meets an array first
        ("def f(e, x, d):\n    return e + d\n", {}),  # `e + d`: an array sum, weakly typed
        ("def f(e, x, d):\n    return (d * 0.5) * x\n", {}),  # a product: rounding only
        ("def f(e, x, d):\n    return (d * 9e8) % 6.28 * x\n", {"d": "(d * 9e8) % 6.28"}),
        ("def f(e, x, d):\n    return d // 0.1 * x\n", {"d": "d // 0.1"}),
        ("def f(e, x, d):\n    return jnp.asarray(d, dtype=x.dtype)\n", {"d": _CAST}),
        ("def f(e, x, d):\n    return jnp.asarray(d, jnp.int32)\n", {"d": _CAST_INT}),
        ("def f(e, x, d):\n    return jnp.float16(d) * x\n", {"d": "jnp.float16(d)"}),
        ("def f(e, x, d):\n    return jnp.full_like(x, d)\n", {"d": "jnp.full_like(x, d)"}),
        ("def f(e, x, d):\n    return jnp.asarray(d, dtype=jnp.float32) * x\n", {}),
        ("def f(e, x, d):\n    return jnp.asarray(d) * x\n", {}),  # the default: float32
        ('def f(e, x, d):\n    return jnp.full(3, d, "float32")\n', {}),
        ("def f(e, x, d):\n    return jnp.float32(d) * x\n", {}),
    ],
)
def test_float_sums_before_an_array(code: str, float_math: dict[str, str]) -> None:
    calls = "e = jnp.ones(3)\nfor i in range(3):\n    e = f(e, e, 0.5 * i)\n"
    found = facts(code + calls).float_math
    assert {param: use.expr for param, use in found.items()} == float_math


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("return (1 - d) * x", "cancellation may lose its digits"),
        (
            "return (d * 9e8) % 6.28 * x",
            "a remainder or floor of a large value keeps its rounding error",
        ),
        (
            "return jnp.asarray(d, jnp.int8)",
            "converting it to a dtype not proven float32 starts from float32 traced",
        ),
    ],
)
def test_why_a_python_float_must_stay_float64(line: str, why: str) -> None:
    code = f"def f(e, x, d):\n    {line}\n"
    code += "e = jnp.ones(3)\nfor i in range(3):\n    e = f(e, e, 0.5 * i)\n"
    assert facts(code).float_math["d"].why == why


def test_a_parameter_not_proven_a_float_is_judged_as_an_int() -> None:
    code = "def f(e, d):\n    return (1 - d) * e\n"
    code += "e = jnp.ones(3)\nfor i in range(3):\n    e = f(e, i)\n"
    assert facts(code).float_math == {}
