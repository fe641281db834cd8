"""AO601: the same gradients with less compiled temp memory."""

from __future__ import annotations

import numpy as np

from .helpers import rewrite

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
