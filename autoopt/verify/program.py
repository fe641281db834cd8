"""Loading the program under verification, by path, inside a worker process.

Standard library only: a worker started as a fresh interpreter (`autoopt.verify.fresh`)
loads the program with this module before anything imports jax or NumPy, so the
program's own environment settings take effect as they would in `python prog.py`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from autoopt.verify.capture import Capture


class EntryError(Exception):
    """The entry point named in the spec does not exist in the program."""


def load_program(path: Path, name: str) -> ModuleType:
    """Import the file at `path` as module `name` (registered in sys.modules first)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise EntryError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def resolve(owner: Any, dotted: str) -> Any:
    """`owner.a.b` for `dotted == "a.b"`, or raise EntryError."""
    value = owner
    for part in dotted.split("."):
        if not hasattr(value, part):
            raise EntryError(f"{getattr(owner, '__name__', owner)} has no attribute {dotted!r}")
        value = getattr(value, part)
    return value


def resolve_entry(module: ModuleType, entry: str | None) -> Any:
    """The entry callable: `MODULE:FUNC`, `FUNC`, or by default `main`."""
    module_name, _, func = (entry or "main").rpartition(":")
    owner = module
    if module_name and module_name != module.__name__:
        owner = importlib.import_module(module_name)
    return resolve(owner, func)


@dataclass
class Loaded:
    """The spec's program as loaded before the worker imported jax, or why it failed.

    `start` is when loading began (a run's time counts from there), `cpu_start` this
    process's CPU time then, and `environ` the environment just before; `output`
    captures what an entry run prints and logs from then on.
    """

    start: float
    cpu_start: float = 0.0
    environ: dict[str, str] = field(default_factory=dict)
    module: ModuleType | None = None
    error: BaseException | None = None
    output: Capture | None = None

    def get(self) -> ModuleType:
        """The module, or the loading failure raised again for the worker to report."""
        if self.error is not None:
            raise self.error
        assert self.module is not None
        return self.module


def preload(spec: dict[str, Any]) -> Loaded:
    """Put the spec's search path first and load its program, catching any failure.

    An entry run ("run" mode) captures the program's output from here on."""
    sys.path[:0] = spec["search_path"]
    environ = dict(os.environ)
    loaded = Loaded(time.perf_counter(), time.process_time(), environ)
    if spec["mode"] == "run":
        loaded.output = Capture(spec["search_path"])
        loaded.output.start()
    try:
        loaded.module = load_program(Path(spec["program"]), spec["module"])
    except BaseException as exc:  # raised again, and reported, by the worker
        loaded.error = exc
    return loaded


def environ_changes(before: dict[str, str]) -> list[str]:
    """The environment variables set, changed or removed since `before`."""
    now = os.environ
    return sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
