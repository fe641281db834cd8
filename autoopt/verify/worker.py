"""The child process that runs user code: `python -m autoopt.verify.worker SPEC.json`.

The spec (written by `autoopt.verify.runner`) names a mode:
- "run": load the program, call its entry, save the output pytree; optionally under
  transfer_guard("log") with host syncs counted, and capturing the arguments of some
  functions' first calls.
- "bench": load the original and the rewritten program and replay captured calls of
  their functions, interleaved (see `autoopt.verify.bench`).
The result goes to `<out_dir>/result.json`; a missing file means the process died.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import resource
import sys
import time
import traceback
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from types import ModuleType
from typing import Any

import jax

from autoopt.verify import probes
from autoopt.verify.trees import save_tree

RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"


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


def install_recorders(module: ModuleType, spec: dict[str, Any]) -> dict[str, probes.ArgRecorder]:
    """Replace each target function of `module` with an ArgRecorder around it."""
    recorders = {}
    root = Path(spec["dir"])
    for target in spec["targets"]:
        if "." in target or not callable(getattr(module, target, None)):
            continue
        directory = root / target
        directory.mkdir(parents=True, exist_ok=True)
        recorders[target] = probes.ArgRecorder(
            getattr(module, target), directory, spec["max_calls"]
        )
        setattr(module, target, recorders[target])
    return recorders


def run_program(spec: dict[str, Any], counter: probes.CompileCounter) -> dict[str, Any]:
    """Load the program, call its entry once, save what it returns."""
    instrument = bool(spec.get("instrument"))
    sys.path[:0] = spec["search_path"]
    if instrument:
        jax.config.update("jax_transfer_guard", "log")
    compiles, compile_s = counter.snapshot()
    start = time.perf_counter()
    with probes.count_host_syncs() if instrument else nullcontext(Counter()) as syncs:
        module = load_program(Path(spec["program"]), spec["module"])
        entry = resolve_entry(module, spec.get("entry"))
        capture = spec.get("capture")
        recorders = install_recorders(module, capture) if capture else {}
        output = probes.block(entry())
        done = time.perf_counter()
    jax.config.update("jax_transfer_guard", "allow")
    _unlimit_memory()
    save_tree(probes.flatten(output), Path(spec["out_dir"]), "outputs")
    return {
        "total_s": done - start,
        "compiles": counter.count - compiles,
        "compile_s": counter.seconds - compile_s,
        "syncs": dict(syncs),
        "device_peak": probes.device_peak_bytes(),
        "captured": {k: {"calls": r.saved, "error": r.error} for k, r in recorders.items()},
    }


def describe_exception(exc: BaseException, user_dirs: list[str]) -> dict[str, Any]:
    """Type, message and the last frames of an exception, the program's own if it has any."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if any(f.filename.startswith(d + os.sep) for d in user_dirs)]
    return {
        "status": "oom" if _out_of_memory(exc) else "error",
        "type": type(exc).__name__,
        "message": str(exc)[:2000],
        "at": [f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in (mine or frames)[-3:]],
    }


def _out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, MemoryError) or RESOURCE_EXHAUSTED in str(exc)


def environment() -> dict[str, Any]:
    """Where this ran: device, versions, precision, peak memory of this process."""
    import jaxlib

    device = jax.devices()[0]
    return {
        "device": device.device_kind,
        "platform": device.platform,
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "x64": bool(jax.config.jax_enable_x64),
        "peak_rss": peak_rss(),
    }


def peak_rss() -> int:
    """This process's peak resident memory in bytes.

    VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # no /proc (macOS): ru_maxrss, which counts bytes there
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _limit_memory(extra: int | None) -> None:
    """Cap the address space at what this process uses now plus `extra` bytes."""
    if extra:
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (used + extra, resource.RLIM_INFINITY))


def _unlimit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def execute(spec: dict[str, Any]) -> dict[str, Any]:
    """Run the spec's mode; every failure of user code becomes a status, not a crash."""
    counter = probes.CompileCounter()
    jax.devices()  # initialise the backend before the memory cap
    _limit_memory(spec.get("memory_limit"))
    try:
        if spec["mode"] == "bench":
            from autoopt.verify.bench import run_bench

            return {"status": "ok", **run_bench(spec, counter)}
        return {"status": "ok", **run_program(spec, counter)}
    except SystemExit as exc:
        return {"status": "exit", "code": str(exc.code)}
    except EntryError as exc:
        return {"status": "entry_error", "message": str(exc)}
    except BaseException as exc:
        traceback.clear_frames(exc.__traceback__)  # free the user's locals before reporting
        _unlimit_memory()
        return describe_exception(exc, spec["search_path"])
    finally:
        _unlimit_memory()


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[1]).read_text())
    result = execute(spec)
    result.update(environment())
    out = Path(spec["out_dir"])
    (out / "result.tmp").write_text(json.dumps(result))
    os.replace(out / "result.tmp", out / "result.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
