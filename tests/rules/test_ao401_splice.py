"""AO401 on splices, `x = jnp.concatenate([x[:i], v, x[i + k:]])`: the safe rewrites
compute what the originals did, and the unsafe ones differ exactly where they say."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import assert_same, rewrite, run_snippet

SAFE = [
    # one row per step, the range proven by the constructor's first dimension
    """
import jax.numpy as jnp
def fill(n):
    out = jnp.zeros((n, 3))
    for t in range(n):
        out = jnp.concatenate([out[:t], (jnp.ones(3) * t)[None], out[t + 1:]])
    return out
result = fill(5)
""",
    # two rows per step, up to the last start that fits
    """
import jax.numpy as jnp
buf = jnp.zeros(8)
for i in range(len(buf) - 1):
    buf = jnp.concatenate([buf[:i], jnp.ones(2) * i, buf[i + 2:]])
result = buf
""",
    # int32 array, float rows: the concatenate promotes, so must the helper
    """
import jax.numpy as jnp
def squash(xs):
    out = jnp.zeros(xs.shape, dtype=xs.dtype)
    for i in range(out.shape[0]):
        row = jnp.tanh(xs[i] / 7)[None, :]
        out = jnp.concatenate((out[:i], row, out[i + 1:]), axis=0)
    return out
result = squash(jnp.arange(12, dtype=jnp.int32).reshape(4, 3))
""",
    # three literal rows from a start above 0, int8 rows into int32
    """
import jax.numpy as jnp
N = 7
def stamp():
    out = jnp.arange(N, dtype=jnp.int32)
    for i in range(1, out.shape[0] - 2):
        out = jnp.concatenate([out[:i], jnp.array([i, -i, 3], dtype=jnp.int8), out[i + 3:]], 0)
    return out
result = stamp()
""",
]


@pytest.mark.parametrize("source", SAFE)
def test_safe_splice_is_bit_identical(source: str) -> None:
    result = rewrite(source, ("AO401",))
    assert [(f.rule, f.fix.value) for f in result.applied] == [("AO401", "safe")]
    assert "concatenate" not in result.new_source
    before, after = run_snippet(source), run_snippet(result.new_source)
    assert (before.shape, before.dtype, before.weak_type) == (
        after.shape,
        after.dtype,
        after.weak_type,
    )
    np.testing.assert_array_equal(before, after)


def test_unproven_start_clamps_where_the_concatenate_grows() -> None:
    """In range the helper agrees; past the end the concatenate grows the array while
    dynamic_update_slice clamps the start and overwrites the last row."""
    source = """
import jax.numpy as jnp
def fill(n):
    out = jnp.zeros(4)
    for t in range(n):
        out = jnp.concatenate([out[:t], jnp.ones(1) * (t + 1), out[t + 1:]])
    return out
result = fill(N)
"""
    safe = rewrite(source, ("AO401",))
    assert not safe.applied and "clamps" in safe.findings[0].message
    unsafe = rewrite(source, ("AO401",), unsafe=True).new_source
    in_range = [s.replace("fill(N)", "fill(4)") for s in (source, unsafe)]
    assert_same(run_snippet(in_range[0]), run_snippet(in_range[1]))
    past = [run_snippet(s.replace("fill(N)", "fill(5)")) for s in (source, unsafe)]
    assert past[0].shape == (5,) and past[1].shape == (4,)
    assert float(past[1][-1]) == 5.0


def test_weak_array_stays_weak_only_in_the_concatenate() -> None:
    source = """
import jax.numpy as jnp
out = jnp.full(3, 0.0)
for i in range(3):
    out = jnp.concatenate([out[:i], jnp.full((1,), 2.0), out[i + 1:]])
result = out
"""
    safe = rewrite(source, ("AO401",))
    assert not safe.applied and "weakly typed" in safe.findings[0].message
    unsafe = rewrite(source, ("AO401",), unsafe=True).new_source
    before, after = run_snippet(source), run_snippet(unsafe)
    np.testing.assert_array_equal(before, after)
    assert before.weak_type and not after.weak_type


def test_splice_keeps_a_loop_whose_carry_type_is_unproven_out_of_fori() -> None:
    """The window is rebuilt by `jnp.concatenate`, whose result type autoopt does not
    prove equal to the window's: no fori_loop; the `.at` update gets its helper."""
    source = """
import jax.numpy as jnp
def smooth(xs):
    out = jnp.zeros(xs.shape[0])
    win = jnp.zeros(5)
    for t in range(xs.shape[0]):
        win = jnp.concatenate([win[:2], xs[t, :1], win[3:]])
        out = out.at[t].set(win.sum())
    return out
result = smooth(jnp.arange(12.0).reshape(6, 2))
"""
    result = rewrite(source, ("AO401",))
    assert [f.title for f in result.findings] == ["Update in place in a jitted, donating helper"]
    assert "fori_loop" not in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source), rtol=1e-6)
