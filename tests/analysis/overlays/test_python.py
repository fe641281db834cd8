"""The Python overlay's claims, checked against the running interpreter."""

from __future__ import annotations

import builtins
import concurrent.futures
import importlib
import importlib.util
import multiprocessing.pool
import operator
import os
import subprocess
import sys

from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from tests.analysis.overlays import resolve


def test_builtins_exist() -> None:
    names = (
        python_api.PURE_BUILTINS | set(python_api.IO_BUILTINS) | python_api.NUMERIC_BUILTINS
        | python_api.SCALAR_BUILTINS | python_api.STRING_BUILTINS | python_api.CONCRETE_BUILTINS
        | python_api.FORCING_BUILTINS | python_api.FRESH_BUILTINS | python_api.READ_ONLY_BUILTINS
        | python_api.HOST_BUILTINS | python_api.KEEPING_BUILTINS | python_api.ENV_BLIND_BUILTINS
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


def test_new_object_calls_make_new_containers() -> None:
    for name in python_api.NEW_OBJECT_CALLS:
        given = getattr(builtins, name)()
        assert getattr(builtins, name)(given) is not given, name


def test_methods_of_containers() -> None:
    containers = (list, dict, set)
    methods = python_api.MUTATING_METHODS | python_api.READ_METHODS
    assert all(any(hasattr(c, m) for c in containers) for m in methods)
    assert not python_api.MUTATING_METHODS & python_api.READ_METHODS
    assert all(n.startswith("__") and n.endswith("__") for n in python_api.TAKEN_OVER)


def test_key_methods_look_their_argument_up() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]

        def __eq__(self, other: object) -> bool:
            raise TypeError("no truth value")

    for name in python_api.KEY_METHODS:
        owners = [c for c in (dict, list, set) if hasattr(c, name)]
        assert owners, name
        for owner in owners:
            container = owner([1]) if owner is not dict else {1: 1}
            try:
                getattr(container, name)(Unhashable())
            except TypeError:
                continue
            raise AssertionError(f"{owner.__name__}.{name} took an unhashable key")


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


class _Tracer:
    """Stands for a JAX tracer: converting it to a Python number fails."""

    def __float__(self) -> float:
        raise TypeError("concrete value needed")

    __complex__ = __index__ = __int__ = __float__  # type: ignore[assignment]

    def __hash__(self) -> int:
        raise TypeError("unhashable")


def test_host_number_modules_convert_their_arguments() -> None:
    calls = {"math": "exp", "cmath": "exp", "statistics": "fmean"}
    assert set(calls) == python_api.HOST_NUMBER_MODULES
    for module, name in calls.items():
        func = getattr(importlib.import_module(module), name)
        arg = [_Tracer()] if module == "statistics" else _Tracer()
        try:
            func(arg)
        except TypeError:
            continue
        raise AssertionError(f"{module}.{name} accepted a value it cannot convert")


def test_caching_decorators_hash_their_arguments() -> None:
    for qual in python_api.CACHING_DECORATORS:
        module, _, name = qual.rpartition(".")
        cached = getattr(importlib.import_module(module), name)(lambda k: k)
        try:
            cached(_Tracer())
        except TypeError:
            continue
        raise AssertionError(f"{qual} did not hash its argument")


def test_namespace_builtins_give_the_module_namespace() -> None:
    names = python_api.NAMESPACE_BUILTINS | python_api.CODE_BUILTINS | python_api.OBJECT_READERS
    assert [n for n in sorted(names | python_api.DICT_READERS) if not hasattr(builtins, n)] == []
    module = sys.modules[__name__]
    assert globals() is vars(module) is module.__dict__
    assert test_namespace_builtins_give_the_module_namespace.__globals__ is globals()
    assert sys._getframe().f_globals is globals()
    scope: dict[str, object] = {}
    exec("x = 1", scope)  # code run in a namespace binds its names there
    assert scope["x"] == 1


def test_module_lookups_give_modules() -> None:
    for qual in python_api.MODULE_LOOKUPS:
        func = getattr(builtins, qual) if "." not in qual else None
        if func is None:
            head, _, attr = qual.rpartition(".")
            owner = sys.modules if head == "sys.modules" else importlib.import_module(head)
            func = getattr(owner, attr)
        top = __name__.partition(".")[0] if qual == "__import__" else __name__
        assert func(__name__) is sys.modules[top], qual
    attributes = {*dir(test_module_lookups_give_modules), *dir(sys._getframe())}
    assert attributes >= python_api.GLOBALS_ATTRIBUTES


def test_readers_leave_a_namespace_as_it_was() -> None:
    namespace = {"a": 1, "b": [2]}
    before = dict(namespace)
    for name in python_api.DICT_READERS:
        getattr(builtins, name)(namespace)
    for name in python_api.OBJECT_READERS - {"isinstance", "hasattr"}:
        getattr(builtins, name)(sys)
    assert namespace == before


#: Run in a fresh interpreter: import the modules with `os.environ` replaced by a
#: mapping that records the keys read, and print the JAX and XLA ones.
_SPY = """
import importlib, os, sys
read = []
class Spy(dict):
    def __getitem__(self, key):
        read.append(key)
        return super().__getitem__(key)
    def get(self, key, default=None):
        read.append(key)
        return super().get(key, default)
    def __contains__(self, key):
        read.append(key)
        return super().__contains__(key)
os.environ = Spy(os.environ)
for name in sys.argv[1:]:
    importlib.import_module(name)
print(sorted({k for k in read if str(k).startswith(("JAX_", "XLA_"))}))
"""


def test_env_blind_modules_read_no_jax_setting_at_import() -> None:
    modules = sorted(python_api.ENV_BLIND_MODULES | numpy_api.ENV_BLIND_MODULES)
    env = {**os.environ, "XLA_PYTHON_CLIENT_PREALLOCATE": "false", "JAX_ENABLE_X64": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _SPY, *modules], capture_output=True, text=True, env=env
    )
    assert done.stdout.strip() == "[]", done.stderr
    assert all(importlib.util.find_spec(m) is not None for m in modules)


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


def test_inspect_local_functions_read_only_their_argument() -> None:
    import inspect

    assert all(callable(getattr(inspect, n)) for n in python_api.INSPECT_LOCAL)

    def f(x: object) -> None:
        pass

    f.__annotations__ = {"x": "GAIN"}  # a name only the module's namespace has
    globals()["GAIN"] = marker = object()
    try:
        assert inspect.signature(f).parameters["x"].annotation == "GAIN"
        evaluated = inspect.signature(f, eval_str=True).parameters["x"].annotation
        assert evaluated is marker  # `eval_str` reads the function's globals
    finally:
        del globals()["GAIN"]
    assert "eval_str" in python_api.INSPECT_EVALUATING
    assert {"globals", "locals"} <= set(inspect.signature(inspect.signature).parameters)
    assert set(inspect.signature(inspect.signature).parameters) & python_api.INSPECT_EVALUATING
