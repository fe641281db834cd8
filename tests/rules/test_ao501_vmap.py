"""AO501: the vmapped snippets compute what the loops did."""

from __future__ import annotations

import pytest

from .helpers import assert_same, rewrite, run_snippet

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
