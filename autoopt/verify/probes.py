"""Instruments that run inside a worker process, next to the user's code (imports jax).

Never import this module in the autoopt process: only `autoopt.verify.worker` does.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import pickle
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import jax
import numpy as np

from autoopt.verify.trees import ARRAY, SCALAR, TEXT, FlatTree, Leaf

COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
COMPILE_STAGES = (
    "/jax/core/compile/jaxpr_trace_duration",
    "/jax/core/compile/jaxpr_to_mlir_module_duration",
    COMPILE_EVENT,
)
# Callers inside these packages are the library at work, not the user's program.
LIBRARY_PACKAGES = ("jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "autoopt.verify")


class CompileCounter:
    """Counts XLA compilations and their time through jax.monitoring events.

    With the verification's compilation cache (`autoopt.verify.xla_cache`), `count`
    still counts every compilation requested, `hits` those the cache served, and each
    request's seconds are charged to what compiling cost (`charge`): `seconds` and
    `charged_wall`/`charged_cpu`, the latter two to add to a run's own clocks.
    """

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self.hits = 0
        self.charged_wall = 0.0
        self.charged_cpu = 0.0
        jax.monitoring.register_event_duration_secs_listener(self._on_event)  # type: ignore[arg-type]  # **_ takes the metadata

    def _on_event(self, event: str, duration: float, **_: Any) -> None:
        if event in COMPILE_STAGES:
            self.seconds += duration
        if event == COMPILE_EVENT:
            self.count += 1

    def snapshot(self) -> tuple[int, float]:
        return self.count, self.seconds

    def charge(self, wall: float, cpu: float) -> None:
        """Seconds a compilation request took more (or less) had it compiled, uncached."""
        self.seconds += wall
        self.charged_wall += wall
        self.charged_cpu += cpu


# ---------------------------------------------------------------- pytrees out


def block(tree: Any) -> Any:
    """Wait for every array leaf of `tree` to be computed."""
    for leaf in jax.tree_util.tree_leaves(tree):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return tree


def flatten(tree: Any) -> FlatTree:
    """Turn an output pytree into plain data the parent can compare without jax."""
    pairs, treedef = jax.tree_util.tree_flatten_with_path(tree)
    leaves = [_leaf(jax.tree_util.keystr(path), value) for path, value in pairs]
    return FlatTree(str(treedef), leaves)


def _leaf(path: str, value: Any) -> Leaf:
    if isinstance(value, bool | int | float | complex):
        return _scalar_leaf(path, value)
    if isinstance(value, jax.Array | np.ndarray | np.generic):
        return _array_leaf(path, value)
    text = value if isinstance(value, str) else re.sub(r"0x[0-9a-fA-F]+", "0x?", repr(value))
    return Leaf(path, TEXT, type(value).__name__, (), text[:500])


def _scalar_leaf(path: str, value: bool | int | float | complex) -> Leaf:
    name = type(value).__name__
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        return Leaf(path, TEXT, name, (), str(value))
    return Leaf(path, SCALAR, name, (), np.asarray(value))


def _array_leaf(path: str, value: Any) -> Leaf:
    dtype = str(value.dtype)
    if isinstance(value, jax.Array) and jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key):
        value = jax.random.key_data(value)
    array = np.asarray(jax.device_get(value))
    if array.dtype.kind == "O":
        return Leaf(path, TEXT, dtype, array.shape, repr(array.tolist())[:500])
    return Leaf(path, ARRAY, dtype, array.shape, _storable(array))


def _storable(array: np.ndarray) -> np.ndarray:
    """ml_dtypes arrays (bfloat16, float8, int4) widened so plain numpy can load them."""
    if array.dtype.kind != "V":
        return array
    return array.astype(np.float32 if "float" in array.dtype.name else np.int64)


# ---------------------------------------------------------------- host syncs

SYNC_METHODS = {
    "__float__": "float()",
    "__int__": "int()",
    "__index__": "index",
    "__complex__": "complex()",
    "__bool__": "bool()",
    "item": ".item()",
    "tolist": ".tolist()",
    "__format__": "format",
    "__str__": "str/print",
    "__repr__": "repr",
}
NUMPY_CONVERTERS = ("asarray", "array", "asanyarray", "ascontiguousarray")


def _called_by_user(depth: int) -> bool:
    name = sys._getframe(depth + 1).f_globals.get("__name__", "")
    return not any(name == p or name.startswith(p + ".") for p in LIBRARY_PACKAGES)


@contextmanager
def count_host_syncs() -> Iterator[Counter[str]]:
    """Count device-to-host reads the user's code makes on concrete jax arrays.

    Patches the conversion methods of jax's array type, numpy's converters and
    jax.device_get for the duration; calls from jax or numpy themselves are not counted.
    """
    counts: Counter[str] = Counter()
    with jax.transfer_guard("allow"):  # this probe array is not the program's transfer
        array_type = type(jax.numpy.zeros(()))
    undo: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, label: str, check: Callable[..., bool]) -> None:
        original = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            if check(*args) and _called_by_user(1):
                counts[label] += 1
            return original(*args, **kwargs)

        undo.append((owner, name, original))
        setattr(owner, name, counted)

    for name, label in SYNC_METHODS.items():
        patch(array_type, name, label, lambda *a: True)
    for name in NUMPY_CONVERTERS:
        patch(np, name, f"np.{name}()", lambda *a: bool(a) and isinstance(a[0], array_type))
    patch(jax, "device_get", "jax.device_get()", lambda *a: True)
    try:
        yield counts
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


# ---------------------------------------------------------------- captured calls


class ArgRecorder:
    """Stands in for a module-level function and saves the arguments of its first calls.

    `wall_s` and `cpu_s` are what saving took (copying and writing the arguments, once
    they are computed): the run's time less these is the program's own."""

    def __init__(self, fn: Callable[..., Any], directory: Path, max_calls: int) -> None:
        self.fn = fn
        self.__wrapped__ = fn
        self.directory = directory
        self.max_calls = max_calls
        self.saved = 0
        self.error = ""
        self.wall_s = self.cpu_s = 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.saved < self.max_calls and not self.error:
            self._save(args, kwargs)
        return self.fn(*args, **kwargs)

    def _save(self, args: tuple, kwargs: dict) -> None:
        if _has_tracer((args, kwargs)):
            return
        with contextlib.suppress(Exception):  # what cannot be saved, save_call reports
            block((args, kwargs))  # computing the arguments is the program's time, not saving's
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            self._write(args, kwargs)
        finally:
            self.wall_s += time.perf_counter() - wall
            self.cpu_s += time.process_time() - cpu

    def _write(self, args: tuple, kwargs: dict) -> None:
        try:
            save_call(self.directory / str(self.saved), args, kwargs)
            self.saved += 1
        except Exception as exc:  # an unpicklable argument: report, keep running
            self.error = f"arguments could not be saved: {type(exc).__name__}: {exc}"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.fn, name)


def _has_tracer(tree: Any) -> bool:
    return any(isinstance(x, jax.core.Tracer) for x in jax.tree_util.tree_leaves(tree))


def save_call(stem: Path, args: tuple, kwargs: dict) -> None:
    """Arrays to `<stem>.npz`, the tree structure and other leaves to `<stem>.pkl`."""
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs))
    kinds, arrays, others = [], {}, {}
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, jax.Array):
            kinds.append(("jax", str(leaf.dtype)))
            arrays[f"a{i}"] = np.asarray(jax.device_get(leaf))
        elif isinstance(leaf, np.ndarray):
            kinds.append(("numpy", str(leaf.dtype)))
            arrays[f"a{i}"] = leaf.copy()
        else:
            kinds.append(("object", ""))
            others[i] = leaf
    blob = pickle.dumps((treedef, kinds, others))
    np.savez(stem.with_suffix(".npz"), **arrays)  # type: ignore[arg-type]  # arrays, not options
    stem.with_suffix(".pkl").write_bytes(blob)


class SavedCall:
    """A captured call that hands out fresh copies of its arguments every time."""

    def __init__(self, stem: Path) -> None:
        self.blob = stem.with_suffix(".pkl").read_bytes()
        with np.load(stem.with_suffix(".npz"), allow_pickle=False) as data:
            self.arrays = {key: data[key] for key in data.files}
        self.modules: dict[str, ModuleType] = {}

    def rebound(self, name: str, module: ModuleType) -> SavedCall:
        """This call for a copy of module `name` loaded as `module` (a rewrite): its
        arguments' classes of `name` (a NamedTuple, a dataclass, a pytree node) are
        `module`'s, as that copy's own code builds them."""
        call = copy.copy(self)
        call.modules = {**self.modules, name: module}
        return call

    def fresh(self) -> tuple[tuple, dict]:
        """New buffers for every array: a donated argument is deleted by the call."""
        treedef, kinds, others = _Unpickler(io.BytesIO(self.blob), self.modules).load()
        leaves = []
        for i, (kind, dtype) in enumerate(kinds):
            if kind == "object":
                leaves.append(others[i])
                continue
            array = self.arrays[f"a{i}"]
            if str(array.dtype) != dtype:
                array = array.view(jax.numpy.dtype(dtype))
            leaves.append(jax.device_put(array) if kind == "jax" else array.copy())
        args, kwargs = jax.tree_util.tree_unflatten(treedef, leaves)
        return block((tuple(args), dict(kwargs)))


class _Unpickler(pickle.Unpickler):
    """Classes of the modules in `modules` looked up there, the rest as pickle does."""

    def __init__(self, file: io.BytesIO, modules: dict[str, ModuleType]) -> None:
        super().__init__(file)
        self.modules = modules

    def find_class(self, module: str, name: str) -> Any:
        if module in self.modules:
            with contextlib.suppress(AttributeError):
                return functools.reduce(getattr, name.split("."), self.modules[module])
        return super().find_class(module, name)


def load_calls(directory: Path) -> list[SavedCall]:
    stems = sorted(directory.glob("*.pkl"), key=lambda p: int(p.stem))
    return [SavedCall(p.with_suffix("")) for p in stems]


# ---------------------------------------------------------------- memory


def compiled_memory(fn: Any, args: tuple, kwargs: dict) -> dict[str, int] | None:
    """Compiled buffer sizes of a jitted `fn` for these arguments; None if it is not jitted."""
    if not hasattr(fn, "lower"):
        return None
    stats = fn.lower(*args, **kwargs).compile().memory_analysis()
    if stats is None:
        return None
    sizes = {
        key: int(getattr(stats, f"{key}_size_in_bytes"))
        for key in ("argument", "output", "temp", "alias")
    }
    sizes["footprint"] = sizes["argument"] + sizes["output"] + sizes["temp"] - sizes["alias"]
    return sizes


def device_peak_bytes() -> int | None:
    """The device allocator's peak, where the backend reports one (GPU, TPU; not CPU)."""
    stats = jax.devices()[0].memory_stats()
    return int(stats["peak_bytes_in_use"]) if stats and "peak_bytes_in_use" in stats else None


def deleted_leaves(tree: Any) -> int:
    """How many jax arrays in `tree` a call deleted (donated buffers)."""
    leaves = jax.tree_util.tree_leaves(tree)
    return sum(1 for x in leaves if isinstance(x, jax.Array) and x.is_deleted())
