"""The flax.linen overlay, checked against the installed flax."""

from __future__ import annotations

import flax.linen as nn
import jax
import jax.numpy as jnp
import pytest

from autoopt.analysis.overlays import flax_linen as linen_api
from tests.analysis.overlays import fresh_leaves, leaves_equal, pointers, resolve, snapshot

X = jnp.ones((2, 3))
KEY = jax.random.key(0)


class Dense(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return c + nn.Dense(3)(x), c


def test_names_exist() -> None:
    names = (linen_api.TRANSFORMS | linen_api.PURE_METHODS | linen_api.FRESH_RESULTS
             | linen_api.MODULE_BASES)  # fmt: skip
    assert [n for n in sorted(names) if not resolve(n)] == []


def test_init_and_apply_are_pure_and_init_is_fresh() -> None:
    model = Dense()
    variables = model.init(KEY, X)
    assert leaves_equal(variables, model.init(KEY, X))
    before = snapshot(variables)
    out = model.apply(variables, X)
    assert leaves_equal(out, model.apply(variables, X))
    assert leaves_equal(before, snapshot(variables))
    assert not pointers(variables) & pointers(X)
    assert {"flax.linen.Module.init"} == linen_api.FRESH_RESULTS


@pytest.mark.parametrize("name", sorted(linen_api.TRANSFORMS))
def test_lifted_transforms_take_a_module(name: str) -> None:
    lifted = getattr(nn, name.rsplit(".", 1)[1])
    if name in linen_api.SCAN_LIKE:
        scanned = lifted(Cell, variable_broadcast="params", split_rngs={"params": False})
        variables = scanned().init(KEY, jnp.zeros(3), X)
        carry, ys = scanned().apply(variables, jnp.zeros(3), X)
        assert carry.shape == (3,) and ys.shape == X.shape
        return
    if name in linen_api.VMAP_LIKE:
        cls = lifted(Dense, in_axes=0, variable_axes={"params": None}, split_rngs={"params": False})
    else:
        cls = lifted(Dense)
    variables = cls().init(KEY, X)
    assert cls().apply(variables, X).shape == X.shape


class Normed(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.BatchNorm(use_running_average=False)(nn.Dense(3)(x))


@pytest.mark.parametrize("model", [Dense(), Normed(), nn.Dense(3)])
def test_init_makes_new_buffers_none_twice(model: nn.Module) -> None:
    assert isinstance(model, nn.Module) and "flax.linen.Module.init" in linen_api.FRESH_RESULTS
    assert fresh_leaves(model.init(KEY, X), X, KEY)


def test_init_returns_what_a_handed_in_initializer_returns() -> None:
    """Why `fresh.py` proves `init` fresh only for modules built from literals with
    sealed code: an initializer may hand back an array it holds, buffer and all."""
    table = jnp.arange(6.0).reshape(3, 2)
    variables = nn.Embed(3, 2, embedding_init=lambda *_: table).init(KEY, jnp.zeros(1, int))
    assert pointers(variables) == pointers(table)
