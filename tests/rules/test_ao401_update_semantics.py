"""AO401 on `x = x.at[i].set(v)` loops: the rewritten snippets compute what the originals did."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import assert_same, rewrite, run_snippet

UPDATES = [
    """
import jax.numpy as jnp
def fill(n):
    out = jnp.zeros((n, 3))
    for t in range(n):
        out = out.at[t].set(jnp.ones(3) * t)
    return out
result = fill(5)
""",
    # negative and out-of-range indices: `.at` drops out-of-range updates, in jit too
    """
import jax.numpy as jnp
def fill(n):
    out = jnp.zeros(4, dtype=jnp.int32)
    for t in range(n):
        out = out.at[t - 3].add(t)
    return out
result = fill(9)
""",
    """
import jax.numpy as jnp
grid = jnp.zeros((4, 4))
for i in range(4):
    for j in range(4):
        grid = grid.at[i, 3 - j].max(i * j * 0.5)
result = grid
""",
]

# Multi-axis updates with `:`, `...` or literal-bounded slices kept in the helper's
# subscript: negative and out-of-range indices, a value broadcast along the slice, and a
# value of another dtype (cast to the array's, as the eager update does).
MULTI_AXIS = [
    """
import jax.numpy as jnp
def pixels(b):
    img = jnp.full((b, 4, 5, 2), -1, dtype=jnp.int32)
    for h in range(4):
        for w in range(6):
            for c in range(2):
                img = img.at[:, h - 1, w, c].set(jnp.arange(b) * h + w - c)
    return img
result = pixels(3)
""",
    """
import jax.numpy as jnp
def cols(n):
    out = jnp.zeros((3, 4), dtype=jnp.bfloat16)
    for i in range(n):
        out = out.at[:, i - 5].add(jnp.float32(i) / 3)
    return out
result = cols(11)
""",
    """
import jax.numpy as jnp
def ends(n):
    out = jnp.zeros((2, 6, 3), dtype=jnp.int32)
    for i in range(n):
        out = out.at[..., 1:-1:2, i].set(i * 2.7)
    return out
result = ends(5)
""",
    """
import jax.numpy as jnp
def strided(n):
    out = jnp.ones(7)
    for i in range(n):
        out = out.at[::3].multiply(i + 1.5)
    return out
result = strided(4)
""",
]


@pytest.mark.parametrize("source", UPDATES + MULTI_AXIS)
def test_ao401_donated_helper_is_identical(source: str) -> None:
    result = rewrite(source, ("AO401",))
    assert [f.rule for f in result.applied] == ["AO401"]
    before, after = run_snippet(source), run_snippet(result.new_source)
    assert before.dtype == after.dtype
    np.testing.assert_array_equal(before, after)


FORI = [
    """
import jax.numpy as jnp
def smooth(xs):
    out = jnp.zeros(xs.shape)
    h = jnp.zeros(xs.shape[1:])
    for t in range(xs.shape[0]):
        h = 0.9 * h + 0.1 * xs[t]
        out = out.at[t].set(h)
    return out
result = smooth(jnp.arange(24.0).reshape(8, 3))
""",
    """
import jax.numpy as jnp
def counts(xs):
    hist = jnp.zeros(5, dtype=jnp.int32)
    for i in range(2, xs.shape[0]):
        hist = hist.at[xs[i] % 5].add(1)
    return hist
result = counts(jnp.arange(17))
""",
]


@pytest.mark.parametrize("source", FORI)
def test_ao401_fori_loop_in_jit_matches(source: str) -> None:
    result = rewrite(source, ("AO401",))
    assert [f.rule for f in result.applied] == ["AO401"]
    assert "fori_loop" in result.new_source and "@jax.jit" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source), rtol=1e-6)


def test_ao401_slice_rewrite_is_unsafe_because_it_clamps() -> None:
    """Out of range, the slice update is dropped; dynamic_update_slice clamps the start
    and overwrites the last rows instead."""
    source = """
import jax.numpy as jnp
def blocks(n):
    out = jnp.zeros((6, 2))
    for b in range(n):
        out = out.at[b * 2 : b * 2 + 2].set(jnp.ones((2, 2)) * (b + 1))
    return out
result = blocks(N)
"""
    safe = rewrite(source, ("AO401",))
    assert not safe.applied and safe.findings[0].fix.value == "unsafe"
    unsafe = rewrite(source, ("AO401",), unsafe=True).new_source
    in_range = [s.replace("blocks(N)", "blocks(3)") for s in (source, unsafe)]
    assert_same(run_snippet(in_range[0]), run_snippet(in_range[1]))
    out_of_range = [s.replace("blocks(N)", "blocks(4)") for s in (source, unsafe)]
    assert float(run_snippet(out_of_range[0])[-1, 0]) == 3.0  # the 4th block is dropped
    assert float(run_snippet(out_of_range[1])[-1, 0]) == 4.0  # ... or lands on rows 4:6


def test_ao401_index_derived_slice_bound_keeps_the_python_loop() -> None:
    """`xs[:j]` with `j = t + 1`: a traced `j` cannot bound a slice, so no fori_loop."""
    source = """
import jax.numpy as jnp


def prefix_sums(xs):
    out = jnp.zeros(xs.shape[0])
    for t in range(xs.shape[0]):
        j = t + 1
        out = out.at[t].set(xs[:j].sum())
    return out


result = prefix_sums(jnp.arange(5.0))
"""
    result = rewrite(source, ("AO401",))
    assert "fori_loop" not in result.new_source
    assert "out = out_set_at(out, t, xs[:j].sum())" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))
