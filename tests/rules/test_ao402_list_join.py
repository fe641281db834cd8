"""AO402's list form: joining the collected pieces once gives exactly the grown array."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import rewrite, run_snippet

GROW = [
    # int accumulator, rows of another dtype: promotion must match step-by-step joining
    """
import jax.numpy as jnp
acc = jnp.zeros((0, 3), dtype=jnp.int32)
for t in range(5):
    acc = jnp.concatenate([acc, jnp.full((1, 3), t, dtype=jnp.int8)])
result = acc
""",
    """
import jax.numpy as jnp
acc = jnp.zeros((0, 2))
for t in range(4):
    acc = jnp.concatenate([acc, jnp.ones((1, 2)) * t, jnp.zeros((2, 2))], axis=0)
result = acc
""",
    """
import jax.numpy as jnp
acc = jnp.arange(3.0)
for t in range(6):
    acc = jnp.vstack([acc, jnp.arange(3.0) + t])
result = acc
""",
    """
import jax.numpy as jnp
acc = jnp.ones((2, 1))
for t in range(3):
    acc = jnp.hstack([acc, jnp.full((2, 1), t)])
result = acc
""",
    """
import jax.numpy as jnp
acc = jnp.zeros((0, 4))
for t in range(0):
    acc = jnp.append(acc, jnp.ones((1, 4)), axis=0)
result = acc
""",
    """
import jax.numpy as jnp
def run(xs):
    out = xs[:1]
    n = 0
    while n < 5:
        n += 1
        if n % 2:
            out = jnp.concatenate([out, xs[n - 1 : n] * n])
    return out
result = run(jnp.arange(12.0).reshape(6, 2))
""",
]


@pytest.mark.parametrize("source", GROW)
def test_ao402_list_join_is_identical(source: str) -> None:
    result = rewrite(source, ("AO402",))
    assert [f.rule for f in result.applied] == ["AO402"]
    before, after = run_snippet(source), run_snippet(result.new_source)
    assert before.dtype == after.dtype and before.shape == after.shape
    np.testing.assert_array_equal(before, after)
