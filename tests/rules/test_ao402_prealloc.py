"""AO402's preallocation form: the rewritten loop ends with exactly the array the
concatenations built (shape, dtype, values), for empty loops too."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import jax
import numpy as np
import pytest

from .helpers import rewrite, run_snippet

GROW = """
import jax.numpy as jnp

def grow(n, width):
    acc = jnp.zeros((0, width), dtype=jnp.float32)
    for i in range(n):
        row = jnp.full((1, width), i, dtype=jnp.float32)
        acc = jnp.concatenate([acc, row])
    return acc
"""

PREALLOCATED = [
    GROW + "result = grow(7, 5)\n",
    GROW + "result = grow(0, 5)\n",  # zero trips: the empty (0, 5) float32 array
    GROW + "result = grow(-3, 2)\n",  # `range(-3)` is empty as well
    """
import jax.numpy as jnp
out = jnp.zeros((0, 3))
for t in range(6):
    out = jnp.concatenate([out, jnp.ones((1, 3)) * t])
result = out
""",
    """
import jax.numpy as jnp
def counts(n):
    table = jnp.empty((0, 4), jnp.int32)
    for k in range(1, n + 1):
        table = jnp.append(table, jnp.expand_dims(jnp.full((4,), k, jnp.int32), 0), axis=0)
    return table
result = counts(5)
""",
    """
import jax.numpy as jnp
def pairs(n):
    out = jnp.zeros((0, 3), "float32")
    for t in range(2, n):
        out = jnp.concatenate((out, jnp.ones((2, 3), jnp.float32) * t), axis=0)
    return out
result = (pairs(6), pairs(2), pairs(1))
""",
    """
import jax.numpy as jnp
def rows(n):
    acc = jnp.zeros((0, 3), dtype="float32")
    for i in range(n):
        row = jnp.full((3,), i, dtype=jnp.float32)
        acc = jnp.vstack([acc, -row[None] / 2])
    return acc
result = rows(4)
""",
    """
import jax.numpy as jnp
def blocks(m, n):
    out = []
    for j in range(m):
        acc = jnp.zeros((0, 2, 2), jnp.bfloat16)
        for i in range(n):
            for k in range(3):
                if k == j:
                    break
            acc = jnp.concatenate([acc, jnp.ones((1, 2, 2), jnp.bfloat16).reshape(1, 2, 2) * i])
        out.append(acc)
    return out
result = blocks(3, 4)
""",
    """
import jax.numpy as jnp
vals = jnp.zeros((0,), jnp.int8)
for t in range(5):
    vals = jnp.hstack([vals, jnp.full((2,), t, jnp.int8) - 1])
result = vals
""",
]


@pytest.mark.parametrize("source", PREALLOCATED)
def test_preallocation_gives_the_same_array(source: str) -> None:
    result = rewrite(source, ("AO402",))
    assert [f.rule for f in result.applied] == ["AO402"]
    assert "_write_rows(" in result.new_source, result.findings[0].message
    before = run_snippet(source)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "donated buffers were not usable" would fail here
        after = run_snippet(result.new_source)
    leaves_a, tree_a = jax.tree.flatten(before)
    leaves_b, tree_b = jax.tree.flatten(after)
    assert tree_a == tree_b
    for a, b in zip(leaves_a, leaves_b, strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert (a.shape, a.dtype) == (b.shape, b.dtype)
        np.testing.assert_array_equal(a, b)


def test_rows_of_another_width_raise_as_concatenate_does() -> None:
    source = """
import jax.numpy as jnp
acc = jnp.zeros((0, 4))
for t in range(3):
    acc = jnp.concatenate([acc, jnp.ones((1, 3))])
result = acc
"""
    rewritten = rewrite(source, ("AO402",)).new_source
    assert "_write_rows(" in rewritten
    for code in (source, rewritten):
        with pytest.raises(TypeError):
            run_snippet(code)


def test_default_float_under_x64(tmp_path) -> None:
    """`jnp.zeros(shape)` is float64 under x64; the buffer follows the accumulator."""
    source = """
import jax.numpy as jnp
acc = jnp.zeros((0, 2))
for t in range(3):
    acc = jnp.concatenate([acc, jnp.ones((1, 2)) / 3 + t])
print(acc.dtype, acc.tolist())
"""
    rewritten = rewrite(source, ("AO402",)).new_source
    assert "_write_rows(" in rewritten
    env = {**os.environ, "JAX_ENABLE_X64": "1", "JAX_PLATFORMS": "cpu"}
    outputs = []
    for name, code in (("original", source), ("rewritten", rewritten)):
        path = tmp_path / f"{name}.py"
        path.write_text(code)
        run = subprocess.run(
            [sys.executable, str(path)], capture_output=True, text=True, env=env, check=True
        )
        outputs.append(run.stdout)
    assert outputs[0].startswith("float64") and outputs[0] == outputs[1]
