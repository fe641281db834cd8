"""The donation verdict: which inputs of a jitted function may be donated, and why not."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import safe_donations, targets, verdicts, weakest
from autoopt.model import Applicability

from ..helpers import HEADER, context

SAFE, UNSAFE, NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

STEP = """
@jax.jit
def step(s, x):
    return s + x
"""


@pytest.mark.parametrize(
    ("caller", "donate", "blocked"),
    [
        (  # the call's result replaces the input, in a program
            "def main():\n    s = jnp.zeros(3)\n    for _ in range(3):\n"
            "        s = step(s, 1.0)\n    print(s)\n",
            [("s", SAFE, "")],
            [],
        ),
        (  # an alias of the input is read after the call
            "def main():\n    s = jnp.zeros(3)\n    best = s\n    s = step(s, 1.0)\n"
            "    print(best)\n",
            [],
            ["`best` may hold the buffers of `s` and is read at line 11"],
        ),
        (  # the same buffer passed twice
            "def main():\n    s = jnp.zeros(3)\n    s = step(s, s)\n    print(s)\n",
            [],
            ["`s` is passed twice in one call at line 9"] * 2,
        ),
        (  # not replaced by the result: no verdict
            "def main():\n    s = jnp.zeros(3)\n    t = step(s, 1.0)\n    print(s, t)\n",
            [],
            [],
        ),
        (  # the caller's own parameter
            "def run(s):\n    s = step(s, 1.0)\n    return s\n",
            [
                (
                    "s",
                    UNSAFE,
                    "the first call donates `s`, the caller's array, which the caller "
                    "may still read",
                )
            ],
            [],
        ),
    ],
)
def test_verdicts(caller: str, donate: list, blocked: list[str]) -> None:
    ctx = context(STEP + caller, HEADER)
    (target,) = targets(ctx)
    assert (target.name, target.plan) == ("step", None)
    assert verdicts(ctx, target) == (donate, blocked)


def test_a_function_ao101_jits_is_a_target() -> None:
    code = """
    def step(s, x):
        return s * x

    def main():
        s = jnp.zeros(3)
        for _ in range(3):
            s = step(s, 2.0)
        print(s)
    """
    ctx = context(code, HEADER)
    (target,) = targets(ctx)
    assert target.plan is not None and target.fix is SAFE and target.is_decorated
    assert safe_donations(ctx, "step") == ["s"]
    assert safe_donations(ctx, "main") == []


def test_safe_donations_need_a_proven_donation() -> None:
    ctx = context(STEP + "def run(s):\n    s = step(s, 1.0)\n    return s\n", HEADER)
    assert safe_donations(ctx, "step") == []  # the donation is only unsafe


def test_weakest() -> None:
    assert weakest([SAFE, UNSAFE, SAFE]) is UNSAFE
    assert weakest([UNSAFE, NONE]) is NONE
    assert weakest([SAFE]) is SAFE
