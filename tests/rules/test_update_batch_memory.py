"""AO401/AO402/AO501/AO601: the rewritten snippets compute what the originals did."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import assert_same, rewrite, run_snippet

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


@pytest.mark.parametrize("source", UPDATES)
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


VMAPS = [
    """
import jax
import jax.numpy as jnp
def predict(x, w):
    return jnp.tanh(w @ x)
def run(xs, w):
    xs = jnp.asarray(xs)
    outs = []
    for x in xs:
        outs.append(predict(x, w))
    return jnp.stack(outs)
result = run(jnp.arange(24.0).reshape(8, 3) / 10, jnp.ones((2, 3)))
""",
    """
import jax
import jax.numpy as jnp
def sample(key, mu):
    return mu + jax.random.normal(key, (3,))
keys = jax.random.split(jax.random.PRNGKey(0), 5)
result = jnp.stack([sample(k, 1.0) for k in keys])
""",
    """
import jax
import jax.numpy as jnp
def f(x: jax.Array, scale):
    return (jnp.sin(x) * scale).sum()
def run(xs: jax.Array):
    outs = []
    for i in range(xs.shape[0]):
        outs.append(f(xs[i], 2))
    return jnp.array(outs)
result = run(jnp.arange(10, dtype=jnp.int32).reshape(5, 2))
""",
]


@pytest.mark.parametrize("source", VMAPS)
def test_ao501_vmap_matches_loop(source: str) -> None:
    result = rewrite(source, ("AO501",))
    assert [f.rule for f in result.applied] == ["AO501"]
    assert "vmap" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source), rtol=1e-5)


def test_ao501_differing_shapes_are_left_alone() -> None:
    source = """
import jax.numpy as jnp
def f(x):
    return x.sum()
xs = [jnp.ones(3), jnp.ones(4)]
result = jnp.stack([f(x) for x in xs])
"""
    result = rewrite(source, ("AO501",), unsafe=True)
    assert result.new_source == source
    assert result.findings[0].fix.value == "none"


REMAT = """
import jax
import jax.numpy as jnp

def block(h, w):
    return h + jnp.tanh(h @ w), None

def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.mean(h ** 2)

ws = jax.random.normal(jax.random.PRNGKey(0), (6, 32, 32)) / 6
x = jax.random.normal(jax.random.PRNGKey(1), (64, 32))
grad = jax.jit(jax.grad(loss))
result = grad(ws, x)
temp = grad.lower(ws, x).compile().memory_analysis().temp_size_in_bytes
"""


def test_ao601_same_gradients_less_memory() -> None:
    result = rewrite(REMAT, ("AO601",))
    assert [f.rule for f in result.applied] == ["AO601"]
    assert "policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable" in result.new_source
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    exec(REMAT, before)
    exec(result.new_source, after)
    np.testing.assert_array_equal(before["result"], after["result"])
    assert after["temp"] < before["temp"]


def test_ao601_never_writes_policy_none() -> None:
    result = rewrite(REMAT, ("AO601",))
    assert "policy=None" not in result.new_source


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
