"""The NumPy overlay's claims, checked against the installed NumPy."""

from __future__ import annotations

import importlib
import inspect

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


def test_new_array_calls_share_no_memory() -> None:
    a = np.arange(6.0)
    args = {"full": (3, 1.0), "full_like": (a, 1.0), "linspace": (0.0, 1.0, 3)}
    for qual in numpy_api.NEW_ARRAY_CALLS:
        name = qual.removeprefix("numpy.")
        made = getattr(np, name)(
            *args.get(name, (a if "like" in name or name in ("array", "copy") else 3,))
        )
        assert isinstance(made, np.ndarray) and not np.shares_memory(made, a), name


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


def _public(module: object) -> dict[str, object]:
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")}


def _out_position(func: object) -> int | None:
    """The index of a positional `out` parameter, if the signature has one."""
    try:
        params = list(inspect.signature(func).parameters.values())  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    found = [i for i, p in enumerate(params) if p.name == "out" and p.kind in kinds]
    return found[0] if found else None


def test_ufunc_inputs_are_complete_and_right() -> None:
    """Every ufunc of the namespace is listed with its `nin`: the positional arguments
    after those are outputs."""
    ufuncs = {n: f for n, f in _public(np).items() if isinstance(f, np.ufunc)}
    assert {n: f.nin for n, f in ufuncs.items()} == {
        n: k for n, k in numpy_api.UFUNC_INPUTS.items() if n in ufuncs
    }
    out = np.zeros(3)
    np.multiply(np.ones(3), 2.0, out)
    assert out.tolist() == [2.0, 2.0, 2.0]


def test_out_positions_are_complete_for_the_out_modules() -> None:
    """Every function of OUT_MODULES that takes `out` by position is a ufunc or listed,
    at that position (a function missing here writes only its `out=` keyword)."""
    found = {}
    for module_name in numpy_api.OUT_MODULES:
        module = importlib.import_module(module_name)
        prefix = module_name.removeprefix("numpy").lstrip(".")
        for name, func in _public(module).items():
            if callable(func) and not isinstance(func, (type, np.ufunc)):
                at = _out_position(func)
                if at is not None:
                    found[f"{prefix}.{name}" if prefix else name] = at
    assert found == {n: at for n, at in numpy_api.OUT_POSITIONS.items() if n in found}
    assert set(numpy_api.OUT_POSITIONS) - set(found) <= {"concat"}  # NumPy 2 only
    frame = np.zeros(3)
    np.clip(np.arange(3.0), 0.0, 1.0, frame)
    assert frame.tolist() == [0.0, 1.0, 1.0]


def test_array_methods_and_their_out_positions() -> None:
    methods = {n for n, f in _public(np.ndarray).items() if callable(f)}
    assert methods == numpy_api.ARRAY_METHODS - {"itemset"}  # NumPy 2 dropped it
    found = {n: _out_position(getattr(np.ndarray, n)) for n in methods}
    positions = {n: at - 1 for n, at in found.items() if at is not None}  # after `self`
    assert positions == numpy_api.METHOD_OUT_POSITIONS
    assert numpy_api.MUTATING_METHODS - {"itemset"} <= methods


def test_ufunc_method_out_positions() -> None:
    for name, at in numpy_api.UFUNC_METHOD_OUT.items():
        assert _out_position(getattr(np.add, name)) == at
    a = np.zeros(3)
    np.subtract.at(a, [0], 1.0)
    assert a.tolist() == [-1.0, 0.0, 0.0]


def test_copy_positions_write_in_place() -> None:
    for qual, at in numpy_api.COPY_POSITIONS.items():
        func = getattr(np, qual.removeprefix("numpy."))
        assert list(inspect.signature(func).parameters)[at] == "copy"
    x = np.array([np.nan, 1.0])
    np.nan_to_num(x, copy=False)
    assert x.tolist() == [0.0, 1.0]


def test_calling_functions_take_a_function() -> None:
    for qual in numpy_api.CALLING_FUNCTIONS:
        assert resolve(qual), qual
    calls = []
    np.apply_along_axis(lambda row: calls.append(1) or row.sum(), 1, np.ones((2, 2)))
    assert calls == [1, 1]
