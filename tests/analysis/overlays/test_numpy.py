"""The NumPy overlay's claims, checked against the installed NumPy."""

from __future__ import annotations

import numpy as np
import pytest

from autoopt.analysis.overlays import numpy as numpy_api
from tests.analysis.overlays import resolve


def test_names_exist() -> None:
    names = numpy_api.MUTATING_FUNCTIONS | set(numpy_api.IMPURE_CALLS) | numpy_api.MODULES
    assert [n for n in sorted(names) if not resolve(n)] == []
    assert all(hasattr(np, n) for n in numpy_api.MAY_RETURN_ITSELF)
    # NumPy 2 dropped `ndarray.itemset`
    assert all(hasattr(np.ndarray, m) for m in numpy_api.MUTATING_METHODS - {"itemset"})


def test_conversions_may_return_their_argument() -> None:
    a = np.ones(3)
    for name in numpy_api.MAY_RETURN_ITSELF - {"array", "resize"}:
        assert getattr(np, name)(a) is a, name
    assert np.array(a, copy=None) is a


def test_reading_methods_leave_the_array_alone() -> None:
    a = np.arange(6.0).reshape(2, 3)
    for name in numpy_api.READING_METHODS:
        method = getattr(a, name)
        method(np.float32) if name == "astype" else method(6) if name == "reshape" else method()
        assert (a == np.arange(6.0).reshape(2, 3)).all(), name


def test_mutating_functions_write_their_first_argument() -> None:
    a = np.zeros(3)
    np.copyto(a, 1.0)
    np.put(a, [0], 2.0)
    np.add.at(a, [1], 1.0)
    assert a.tolist() == [2.0, 2.0, 1.0]


def test_narrow_floats_fit() -> None:
    assert all(0 < limit <= np.finfo(name).max for name, limit in numpy_api.NARROW_FLOATS.items())


@pytest.mark.parametrize("method", sorted(numpy_api.RNG_SIZE))
def test_rng_size_and_dtype(method: str) -> None:
    rng = np.random.default_rng(0)
    at = numpy_api.RNG_SIZE[method]
    out = getattr(rng, method)(*[0, 1][:at], (2, 3))
    assert out.shape == (2, 3)
    dtype = numpy_api.RNG_DTYPE[method]
    assert dtype is None or out.dtype.name == dtype


def test_fresh_methods_exist() -> None:
    holders = (np.ones(3), np.random.default_rng(0), np.random.RandomState(0))
    assert all(any(hasattr(h, m) for h in holders) for m in numpy_api.FRESH_METHODS)
