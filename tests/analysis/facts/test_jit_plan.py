"""AO101's plan: each premise, and the problem or doubt it gives when it fails."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.jit_plan import plans
from autoopt.model import Applicability

from ..helpers import HEADER, context

LOOP = "\nfor _ in range(3):\n    y = f({args})\n"


def plan_of(code: str, args: str):
    ctx = context(code + LOOP.format(args=args), HEADER)
    (plan,) = plans(ctx)
    return plan


@pytest.mark.parametrize(
    ("code", "args", "fix", "static", "text"),
    [
        ("def f(x):\n    return jnp.sin(x)\n", "jnp.ones(3)", Applicability.SAFE, {}, ""),
        (
            "def f(x, n):\n    return jnp.zeros(n) + x\n",
            "jnp.ones(3), 3",
            Applicability.SAFE,
            {"n": "the shape in `jnp.zeros`"},
            "",
        ),
        (
            "def f(x, kind):\n    return jnp.sin(x)\n",
            "jnp.ones(3), 'a'",
            Applicability.SAFE,
            {"kind": "it receives a string"},
            "",
        ),
        (
            "def f(x):\n    return jnp.sin(x)\n",
            "np.ones(3)",
            Applicability.UNSAFE,
            {},
            "`x` receives a NumPy array",
        ),
        ("def f(x):\n    return jnp.sin(x)\n", "data", Applicability.UNSAFE, {}, "cannot prove"),
        (
            "def f(x, cfg):\n    return x * cfg['a']\n",
            "jnp.ones(3), {'a': 1.0}",
            Applicability.NONE,
            {},
            "`cfg` receives a Python container",
        ),
        (
            "def f(x):\n    print(x)\n    return jnp.sin(x)\n",
            "jnp.ones(3)",
            Applicability.NONE,
            {},
            "it is not pure: it prints",
        ),
        (
            "def f(x):\n    return int(jnp.sum(x))\n",
            "jnp.ones(3)",
            Applicability.NONE,
            {},
            "`int()` depends on the array argument `x`",
        ),
        (
            "def f(x, n):\n    return jnp.zeros(n) + x\n",
            "jnp.ones(3), _",
            Applicability.NONE,
            {"n": "the shape in `jnp.zeros`"},
            "`n` must be static and changes on every iteration",
        ),
    ],
)
def test_premises(code: str, args: str, fix: Applicability, static: dict, text: str) -> None:
    plan = plan_of(code, args)
    assert plan.fix is fix and plan.static == static
    said = plan.problem or (plan.doubts[0] if plan.doubts else "")
    assert text in said and bool(text) == bool(said)


def test_only_eager_loops_count() -> None:
    code = "@jax.jit\ndef g(x):\n    for _ in range(3):\n        x = f(x)\n    return x\n"
    ctx = context("def f(x):\n    return jnp.sin(x)\n" + code, HEADER)
    assert plans(ctx) == []
