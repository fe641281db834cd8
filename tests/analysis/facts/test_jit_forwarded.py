"""A parameter only handed on to functions under a bare `@jax.jit`."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.jit_forwarded import forwarded_to_jits

HEADER = """
import functools
import jax
import jax.numpy as jnp


@jax.jit
def update(w, batch):
    return w - jnp.mean(batch)


@functools.partial(jax.jit, static_argnums=1)
def scaled(w, k):
    return w * k


def plain(w, batch):
    return w - jnp.mean(batch)
"""


def forwarded(body: str) -> bool:
    code = HEADER + "\n\ndef step(w, b):\n" + body
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    return forwarded_to_jits(ctx, ctx.graph.functions["step"], "b")


def test_an_argument_of_bare_jitted_calls_is_forwarded() -> None:
    assert forwarded("    w = update(w, b)\n    w = update(w, batch=b)\n    return w\n")


@pytest.mark.parametrize(
    "body",
    [
        "    return plain(w, b)\n",  # not jitted: it may do NumPy math on it
        "    return scaled(w, b)\n",  # a jit with static arguments: it may need it static
        "    return update(w, b) + jnp.mean(b)\n",  # read otherwise too
        "    return update(w, b[0])\n",  # a part of it: indexed before the jit sees it
        "    b = b * 2\n    return update(w, b)\n",  # rebound
        "    return update(w, *b)\n",  # starred
        "    return w\n",  # never read
    ],
)
def test_any_other_read_is_not(body: str) -> None:
    assert not forwarded(body)


def test_another_librarys_jit_is_not_a_bare_jit() -> None:
    code = (
        "import jax\nfrom flax import nnx\n\n\n@nnx.jit\ndef update(m, b):\n    return b\n\n\n"
        "def step(m, b):\n    return update(m, b)\n"
    )
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    assert not forwarded_to_jits(ctx, ctx.graph.functions["step"], "b")
