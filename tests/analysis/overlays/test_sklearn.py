"""The scikit-learn overlay, checked against the installed scikit-learn."""

from __future__ import annotations

import gc
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from autoopt.analysis.overlays import sklearn as sklearn_api
from tests.analysis.overlays import lookup, pointers, snapshot


@pytest.mark.parametrize("name", sorted(sklearn_api.ARRAY_SPLITS))
def test_a_split_of_jax_arrays_is_a_list_of_new_jax_arrays_two_each(name: str) -> None:
    split = lookup(name)
    x = jnp.arange(40.0).reshape(20, 2)
    y = jnp.arange(20)
    before = snapshot((x, y))
    out = split(x, y, test_size=0.25, random_state=0)
    assert type(out) is list and len(out) == 4
    assert all(isinstance(part, jax.Array) for part in out)
    assert [p.shape[1:] for p in out] == [(2,), (2,), (), ()]
    assert out[0].shape[0] + out[1].shape[0] == 20
    assert not pointers(out) & pointers((x, y))
    assert np.array_equal(before[0], np.asarray(x)) and np.array_equal(before[1], np.asarray(y))


@pytest.mark.parametrize("name", sorted(sklearn_api.ARRAY_SPLITS))
def test_a_split_keeps_nothing_it_is_given(name: str) -> None:
    x = jnp.arange(12.0).reshape(6, 2)
    ref = weakref.ref(x)
    lookup(name)(x, test_size=0.5, random_state=0)
    del x
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("name", sorted(sklearn_api.ARRAY_SPLITS))
def test_a_split_of_a_list_is_no_array(name: str) -> None:
    """Why only JAX arrays count: a list gives lists (of its very items)."""
    items = [jnp.ones(2), jnp.zeros(2), jnp.ones(2), jnp.zeros(2)]
    train, _ = lookup(name)(items, test_size=0.5, random_state=0)
    assert type(train) is list and any(a is b for a in train for b in items)
