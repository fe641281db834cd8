"""Spelling a qualified JAX name with the module's own imports."""

from __future__ import annotations

import pytest

from autoopt.model import RequireImport
from autoopt.rewrite.spell import spell

from ..analysis.helpers import context

JAX = (RequireImport("jax"),)


@pytest.mark.parametrize(
    ("header", "stack", "scan", "jit"),
    [
        (
            "import jax\nimport jax.numpy as jnp\n",
            ("jnp.stack", ()),
            ("jax.lax.scan", ()),
            ("jax.jit", ()),
        ),
        ("import jax.numpy as jnp\n", ("jnp.stack", ()), ("jax.lax.scan", JAX), ("jax.jit", JAX)),
        ("from jax import lax\n", ("jax.numpy.stack", JAX), ("lax.scan", ()), ("jax.jit", JAX)),
        (
            "import jax.lax as L\nimport jax\n",
            ("jax.numpy.stack", ()),
            ("L.scan", ()),
            ("jax.jit", ()),
        ),
        ("import jax as J\n", ("J.numpy.stack", ()), ("J.lax.scan", ()), ("J.jit", ())),
        ("import numpy as np\n", ("jax.numpy.stack", JAX), ("jax.lax.scan", JAX), ("jax.jit", JAX)),
    ],
)
def test_spell(header: str, stack, scan, jit) -> None:
    ctx = context("", header)
    assert spell(ctx, "jax.numpy.stack") == stack
    assert spell(ctx, "jax.lax.scan") == scan
    assert spell(ctx, "jax.jit") == jit


def test_the_longest_bound_module_wins() -> None:
    ctx = context("", "import jax.lax as L\nimport jax.lax.linalg as LL\n")
    assert spell(ctx, "jax.lax.linalg.cholesky") == ("LL.cholesky", ())
    assert spell(ctx, "jax.lax.dynamic_update_slice_in_dim") == (
        "L.dynamic_update_slice_in_dim",
        (),
    )
