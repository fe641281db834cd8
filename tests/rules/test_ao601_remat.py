"""AO601: the same gradients with less compiled temp memory."""

from __future__ import annotations

import sys
import types

import jax
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


LINEN = """
import jax
import jax.numpy as jnp
import flax.linen as nn

class DenseLayer(nn.Module):
    growth: int

    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        z = nn.Conv(self.growth, (3, 3), use_bias=False)(nn.relu(z))
        z = nn.Dropout(0.2, deterministic=not train)(z)
        return jnp.concatenate([x, z], axis=-1)

class DenseBlock(nn.Module):
    depth: int

    @nn.compact
    def __call__(self, x, train=True):
        for _ in range(self.depth):
            x = DenseLayer(4)(x, train=train)
        return x

model = DenseBlock(5)
x = jax.random.normal(jax.random.PRNGKey(0), (2, 8, 8, 3))
rngs = {"params": jax.random.PRNGKey(1), "dropout": jax.random.PRNGKey(2)}
variables = model.init(rngs, x, True)

def loss(params, batch_stats):
    y, new = model.apply({"params": params, "batch_stats": batch_stats}, x, True,
                         rngs={"dropout": jax.random.PRNGKey(3)}, mutable=["batch_stats"])
    return jnp.mean(y ** 2), new

(value, new), grads = jax.value_and_grad(loss, has_aux=True)(
    variables["params"], variables["batch_stats"])
result = (variables, value, new, grads)
"""

EQUINOX = """
import equinox as eqx
import jax
import jax.numpy as jnp

class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(16, 16, key=key)
        self.dropout = eqx.nn.Dropout(0.2)

    def __call__(self, x, *, key=None, train=False):
        h = self.dropout(self.linear(x), inference=not train, key=key)
        return x + jnp.tanh(h)

class Net(eqx.Module):
    layers: list[Block]

    def __call__(self, x, key):
        for layer in self.layers:
            key, sub = jax.random.split(key)
            x = layer(x, key=sub, train=True)
        return x

net = Net([Block(k) for k in jax.random.split(jax.random.PRNGKey(0), 6)])
x = jax.random.normal(jax.random.PRNGKey(1), (4, 16))

@eqx.filter_value_and_grad
def loss(net, x, key):
    return jnp.mean(jax.vmap(net, in_axes=(0, None))(x, key) ** 2)

value, grads = loss(net, x, jax.random.PRNGKey(2))
result = (value, jax.tree.leaves(eqx.filter(grads, eqx.is_array)))
"""


def run_snippet(source: str) -> object:
    """Run `source` as a module registered in `sys.modules` (dataclass fields of module
    classes look their module up there) and return its `result`."""
    module = types.ModuleType("ao601_layers_snippet")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, "<snippet>", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return jax.block_until_ready(module.result)


def _close(before: object, after: object) -> None:
    """Same tree (names included), equal values, gradients to rounding (recomputed)."""
    assert jax.tree.structure(before) == jax.tree.structure(after)
    for a, b in zip(jax.tree.leaves(before), jax.tree.leaves(after), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def test_ao601_linen_layer_loop_keeps_names_values_and_batch_stats() -> None:
    result = rewrite(LINEN, ("AO601",), unsafe=True)
    assert [f.fix.value for f in result.findings] == ["unsafe"]
    assert "for layer_index in range(self.depth):" in result.new_source
    assert "nn.remat(DenseLayer, static_argnums=(2,))(\n" in result.new_source
    assert '4, name=f"DenseLayer_{layer_index}"\n            )(x, train)' in result.new_source
    (variables, value, new, grads), after = run_snippet(LINEN), run_snippet(result.new_source)
    assert list(variables["params"]) == [f"DenseLayer_{i}" for i in range(5)]
    _close((variables, value, new), after[:3])
    _close(grads, after[3])


def test_ao601_equinox_layer_loop_same_values_and_gradients() -> None:
    result = rewrite(EQUINOX, ("AO601",), unsafe=True)
    assert [f.fix.value for f in result.findings] == ["unsafe"]
    assert "x = eqx.filter_checkpoint(layer)(x, key=sub, train=True)" in result.new_source
    _close(run_snippet(EQUINOX), run_snippet(result.new_source))


def test_ao601_layer_loop_fix_is_never_applied_without_unsafe_fixes() -> None:
    for source in (LINEN, EQUINOX):
        result = rewrite(source, ("AO601",))
        assert result.new_source == source and not result.applied
