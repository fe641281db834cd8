"""The Python overlay's claims, checked against the running interpreter."""

from __future__ import annotations

import builtins
import concurrent.futures
import importlib.util
import multiprocessing.pool
import operator

from autoopt.analysis.overlays import python as python_api
from tests.analysis.overlays import resolve


def test_builtins_exist() -> None:
    names = (
        python_api.PURE_BUILTINS | set(python_api.IO_BUILTINS) | python_api.NUMERIC_BUILTINS
        | python_api.SCALAR_BUILTINS | python_api.STRING_BUILTINS | python_api.CONCRETE_BUILTINS
        | python_api.FORCING_BUILTINS | python_api.FRESH_BUILTINS | python_api.READ_ONLY_BUILTINS
        | python_api.HOST_BUILTINS | python_api.KEEPING_BUILTINS
    )  # fmt: skip
    assert [n for n in sorted(names) if not hasattr(builtins, n)] == []
    assert python_api.NUMERIC_BUILTINS <= python_api.PURE_BUILTINS
    assert not set(python_api.IO_BUILTINS) & python_api.PURE_BUILTINS


def test_scalar_and_string_builtins() -> None:
    args = {"len": ([1],), "isinstance": (1, int)}
    for name in python_api.SCALAR_BUILTINS:
        value = getattr(builtins, name)(*args.get(name, (1,)))
        assert isinstance(value, (int, float, complex)), name
    assert all(isinstance(getattr(builtins, n)(1), str) for n in python_api.STRING_BUILTINS)


def test_methods_of_containers() -> None:
    containers = (list, dict, set)
    methods = python_api.MUTATING_METHODS | python_api.READ_METHODS
    assert all(any(hasattr(c, m) for c in containers) for m in methods)
    assert not python_api.MUTATING_METHODS & python_api.READ_METHODS
    assert all(n.startswith("__") and n.endswith("__") for n in python_api.TAKEN_OVER)


def test_modules_exist() -> None:
    modules = set(python_api.IMPURE_MODULES) | python_api.MODULES
    assert all(importlib.util.find_spec(m) is not None for m in modules)
    assert all(resolve(p.rstrip(".")) for p in python_api.PURE_PREFIXES)
    assert resolve("typing.NamedTuple") and "typing.NamedTuple" in python_api.NAMEDTUPLE_BASES
    stdlib = ("pickle.", "multiprocessing.", "concurrent.futures.")
    assert set(stdlib) <= set(python_api.PICKLING_PREFIXES)
    assert all(resolve(p.rstrip(".")) for p in stdlib)


def test_pickling_methods() -> None:
    senders = (multiprocessing.pool.Pool, concurrent.futures.Executor)
    local = python_api.PICKLING_METHODS - {"remote"}  # Ray's
    assert all(any(hasattr(s, m) for s in senders) for m in local)


def test_process_launchers_exist() -> None:
    assert all(resolve(q) for q in python_api.PROCESS_POOLS + python_api.COMMAND_CALLS)
    heads = {q.split(".")[0] for q in python_api.PROCESS_POOLS + python_api.COMMAND_CALLS}
    assert heads - {"os"} <= python_api.LAUNCHER_MODULES


def test_writing_operators_are_the_in_place_ones() -> None:
    """Every in-place twin of an `operator` function (`iadd` of `add`, `iand` of `and_`),
    and `setitem`, `delitem`, is listed."""
    twins = {n.rstrip("_") for n in dir(operator) if not n.startswith("_")}
    in_place = {f"operator.i{n}" for n in twins if hasattr(operator, f"i{n}")}
    assert in_place | {"operator.setitem", "operator.delitem"} == python_api.WRITING_OPERATORS
    items = [1]
    operator.iadd(items, [2])
    assert items == [1, 2]


def test_builtins_that_write_call_or_introspect() -> None:
    names = (
        python_api.WRITING_BUILTINS | python_api.CALLING_BUILTINS
        | python_api.INTROSPECTION_BUILTINS | python_api.ITERATING_BUILTINS
    )  # fmt: skip
    assert all(hasattr(builtins, n) for n in names)
    calls: list[int] = []
    list(map(calls.append, [1, 2]))
    sorted([2, 1], key=lambda v: calls.append(v) or v)
    assert len(calls) == 4


def test_transparent_decorators_exist() -> None:
    for name in python_api.TRANSPARENT_DECORATORS:
        assert resolve(name) if "." in name else hasattr(builtins, name), name
