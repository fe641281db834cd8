"""Function summaries: array-ness, impurities, host handoffs and frozen outside state."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.summaries import Summary, summary

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"


def summarise(code: str, name: str = "f") -> Summary:
    code = HEADER + code
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    return summary(ctx, ctx.graph.functions[name])


@pytest.mark.parametrize(
    ("code", "array_function"),
    [
        ("def f(x):\n    return jnp.sin(x)\n", True),
        ("def lap(u):\n    return jnp.roll(u, 1) - u\ndef f(u):\n    return u + lap(u)\n", True),
        ("def f(u):\n    return u.at[0].set(1.0)\n", True),
        ("def f(x):\n    return np.sin(x)\n", False),
        ("def f(x):\n    return x + 1\n", False),  # nothing shows x is an array
        ("def f(x):\n    return x + 1\nfor _ in range(3):\n    y = f(jnp.ones(3))\n", True),
    ],
)
def test_array_function(code: str, array_function: bool) -> None:
    assert summarise(code).array_function is array_function


@pytest.mark.parametrize(
    ("code", "handoff"),
    [
        ("def f(x):\n    return jnp.asarray(np.clip(x, 0, 1))\n", "hands the traced `x` to NumPy"),
        ("def f(x):\n    return x if isinstance(x, np.ndarray) else x\n", "tests `isinstance`"),
        ("def f(x):\n    return str(x)\n", "formats the traced `x` as text"),
        ("def f(x):\n    return f'{x}'\n", "formats a traced value as text"),
        ("def f(x):\n    return jnp.nonzero(x)\n", "without `size=`"),
        ("def f(x):\n    return jnp.where(x > 0)\n", "without `size=`"),
        ("def f(x):\n    return x[x > 0]\n", "boolean mask `x > 0`"),
    ],
)
def test_host_handoffs(code: str, handoff: str) -> None:
    (found,) = summarise(code).handoffs
    assert handoff in found


@pytest.mark.parametrize(
    "code",
    [
        "def f(x):\n    return jnp.nonzero(x, size=3)\n",
        "def f(x):\n    return jnp.where(x > 0, x, 0.0)\n",
        "def f(x):\n    return x[jnp.arange(2)]\n",
        "def f(x):\n    return np.float32(2.0) * x\n",
        "def f(x):\n    return jnp.zeros(np.prod(x.shape))\n",
    ],
)
def test_no_handoff(code: str) -> None:
    assert summarise(code).handoffs == []


@pytest.mark.parametrize(
    ("code", "impurity"),
    [
        (
            "LR = 0.1\ndef f(g):\n    return LR * g\nLR = 0.2\n",
            "reads `LR`, which the module changes",
        ),
        (
            "M = np.ones(3)\ndef f(x):\n    return x * M\nnp.copyto(M, np.zeros(3))\n",
            "reads `M`, which the module changes",
        ),
        (
            "def noise(n):\n    return np.random.normal(size=n)\n"
            "def f(x):\n    return x + noise(3)\n",
            "calls `noise`, which draws host random numbers",
        ),
        (
            "def f(x, rng):\n    return x + rng.normal()\n"
            "for _ in range(3):\n    y = f(jnp.ones(3), np.random.default_rng(0))\n",
            "a method of `rng`",
        ),
    ],
)
def test_impurities(code: str, impurity: str) -> None:
    assert impurity in summarise(code).impurities[0]


def test_outside_objects_are_doubts_not_proofs() -> None:
    code = "class S:\n    lr = 0.1\nsched = S()\ndef f(w):\n    return w * sched.lr\n"
    assert summarise(code).doubts == [
        "reads `sched` (a host object) from outside; jit would freeze its value"
    ]


def test_a_closure_over_a_rebound_local_is_an_impurity() -> None:
    code = (
        "def train(w):\n    lr = 0.1\n    def f(w):\n        return w * lr\n"
        "    for _ in range(3):\n        w = f(w)\n        lr = lr / 2\n    return w\n"
    )
    assert summarise(code, "train.f").impurities == [
        "reads `lr`, which the enclosing function rebinds (jit would freeze it)"
    ]


_CALLER = "for i in range(4):\n    y = f(jnp.ones(3), i)\n"


@pytest.mark.parametrize(
    ("code", "handoff"),
    [
        ("import math\ndef f(x, t):\n    return x * math.exp(t)\n", "to `math.exp`"),
        ("from math import exp as e\ndef f(x, t):\n    return x * e(t)\n", "to `math.exp`"),
        (
            "import functools\n@functools.lru_cache(maxsize=None)\ndef g(k):\n    return 2.0 * k\n"
            "def f(x, t):\n    return x * g(t)\n",
            "`functools.lru_cache` caches by its arguments",
        ),
        (
            "import math\ndef g(k):\n    return math.sqrt(k)\ndef f(x, t):\n    return x * g(t)\n",
            "passes a traced value to `g`, which hands the traced `k` to `math.sqrt`",
        ),
    ],
)
def test_callee_and_host_number_handoffs(code: str, handoff: str) -> None:
    (found,) = summarise(code + _CALLER).handoffs
    assert handoff in found


@pytest.mark.parametrize(
    ("code", "doubt"),
    [
        ("def f(x, t):\n    return x + (t * 2_654_435_761) % 7\n", "`t` may be a Python int"),
        (
            "def g(k):\n    return k * k\ndef f(x, t):\n    return x + g(t)\n",
            "passes a traced value to `g`, where `k` may be a Python int",
        ),
        (
            "def deco(fn):\n    return fn\n@deco\ndef g(k):\n    return jnp.sin(k)\n"
            "def f(x, t):\n    return x + g(t)\n",
            "whose decorator `deco` autoopt cannot see through",
        ),
    ],
)
def test_unproven_uses_are_doubts(code: str, doubt: str) -> None:
    found = summarise(code + _CALLER)
    assert not found.handoffs and any(doubt in d for d in found.doubts), found.doubts


@pytest.mark.parametrize(
    "code",
    [
        "def f(x, t):\n    return x * t * 9_000_017\n",  # meets the array first
        "def f(x, t):\n    return x + t / 3\n",  # a true division cannot wrap
        "def f(x, t):\n    return x + (t * 9_000_017) % 7\n",  # within int32 for t < 4
    ],
)
def test_int_math_that_cannot_wrap(code: str) -> None:
    assert not summarise(code + _CALLER).doubts


def test_float_arguments_are_rounding_only() -> None:
    code = "def f(x, t):\n    return x + t * 3.0\n"
    code += "for i in range(4):\n    y = f(jnp.ones(3), 0.1 * i)\n"
    assert not summarise(code).doubts
