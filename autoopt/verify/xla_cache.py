"""A compilation cache private to one file's verification, shared by its runs (worker side).

The runs of the original, of each rewrite and of their combination compile mostly the
same functions; with jax's persistent cache in a directory of the verification's own,
a function a rewrite did not change is compiled once per file and read back after.
Time measured must not change with it: every compilation served from the cache is
charged what compiling it cost (wall and CPU seconds, recorded by the run that
compiled it), in place of what reading it cost, and a compilation that wrote the
cache is charged its compile alone, without the hashing and writing. A run's times
are so those of a run that compiled everything, and the compilations counted are
the requests (served or compiled), as without the cache. What still differs is noise:
a function's compile time is measured once per file, not in every run.

Imports jax: only the worker uses this module.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
from jax._src import compiler

from autoopt.verify.probes import CompileCounter

HOOKS = ("compile_or_get_cached", "backend_compile_and_load", "_cache_read", "_cache_write")
Cost = tuple[float, float]  # wall and CPU seconds


def enable(directory: str, counter: CompileCounter) -> bool:
    """Use the cache under `directory` for this process, charging `counter`; False
    (and no cache) where this jax lacks the functions the charging wraps or the options."""
    root = Path(directory)
    settings = {
        "jax_compilation_cache_dir": str(root / "xla"),
        "jax_persistent_cache_min_compile_time_secs": 0.0,
        "jax_persistent_cache_min_entry_size_bytes": -1,  # every entry, whatever its size
        "jax_persistent_cache_enable_xla_caches": "none",  # compile times stay their own
    }
    hooked = all(callable(getattr(compiler, name, None)) for name in HOOKS)
    if not hooked or not all(name in jax.config.values for name in settings):
        return False
    (root / "times").mkdir(parents=True, exist_ok=True)
    for name, value in settings.items():
        jax.config.update(name, value)
    _Charging(root / "times", counter).install()
    return True


class _Request(threading.local):
    """The compilation request under way in this thread."""

    cached: Cost | None = None  # what the served entry cost to compile
    compiled: Cost | None = None  # what compiling it cost now
    keyed: bool = False  # the cache was looked up


class _Charging:
    """Wraps jax's compile path to charge each cached request its recorded compile cost."""

    def __init__(self, times: Path, counter: CompileCounter) -> None:
        self.times, self.counter = times, counter
        self.state = _Request()

    def install(self) -> None:
        originals = {name: getattr(compiler, name) for name in HOOKS}
        compiler.compile_or_get_cached = self._request(originals["compile_or_get_cached"])
        compiler.backend_compile_and_load = self._compile(originals["backend_compile_and_load"])
        compiler._cache_read = self._read(originals["_cache_read"])
        compiler._cache_write = self._write(originals["_cache_write"])

    def _request(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def request(*args: Any, **kwargs: Any) -> Any:
            self.state.cached, self.state.compiled, self.state.keyed = None, None, False
            wall, cpu = time.perf_counter(), time.process_time()
            executable = original(*args, **kwargs)
            spent = time.perf_counter() - wall, time.process_time() - cpu
            cost = self.state.cached or (self.state.compiled if self.state.keyed else None)
            if cost is not None:
                self.counter.charge(cost[0] - spent[0], cost[1] - spent[1])
            return executable

        return request

    def _compile(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def compile_and_load(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            executable = original(*args, **kwargs)
            self.state.compiled = time.perf_counter() - wall, time.process_time() - cpu
            return executable

        return compile_and_load

    def _read(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def read(module_name: str, cache_key: str, *args: Any, **kwargs: Any) -> Any:
            self.state.keyed = True
            executable, seconds = original(module_name, cache_key, *args, **kwargs)
            if executable is not None:
                self.counter.hits += 1
                self.state.cached = self._recorded(cache_key)
            return executable, seconds

        return read

    def _write(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def write(cache_key: str, *args: Any, **kwargs: Any) -> Any:
            if self.state.compiled is not None:
                wall, cpu = self.state.compiled
                with contextlib.suppress(OSError):  # unrecorded: a later hit is not charged
                    (self.times / cache_key).write_text(f"{wall!r} {cpu!r}")
            return original(cache_key, *args, **kwargs)

        return write

    def _recorded(self, cache_key: str) -> Cost | None:
        """What compiling `cache_key` cost, if one of this verification's runs did."""
        try:
            wall, cpu = (self.times / cache_key).read_text().split()
        except (OSError, ValueError):
            return None
        return float(wall), float(cpu)
