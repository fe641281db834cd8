"""The child process that runs user code: `python -m autoopt.verify.worker SPEC.json`.

The spec (written by `autoopt.verify.runner`) names a mode:
- "run": load the program, call its entry, save the output pytree and what the program
  printed and logged (`autoopt.verify.capture`); optionally under transfer_guard("log")
  with host syncs counted, and capturing the arguments of some functions' first calls.
- "bench": load the original and the rewritten program and replay captured calls of
  their functions, interleaved (see `autoopt.verify.bench`).
Loading the program is `autoopt.verify.program`'s; in a fresh interpreter
(`autoopt.verify.fresh`) it happens before this module, and jax, are imported.
The result goes to `<out_dir>/result.json`; a missing file means the process died.
"""

from __future__ import annotations

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

from autoopt.verify import probes, xla_cache
from autoopt.verify.capture import save_output
from autoopt.verify.program import EntryError, Loaded, environ_changes, preload, resolve_entry
from autoopt.verify.trees import save_tree

RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"


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


def run_program(
    spec: dict[str, Any], counter: probes.CompileCounter, loaded: Loaded | None = None
) -> dict[str, Any]:
    """Load the program (unless `loaded` already), call its entry once, save what it returns."""
    instrument = bool(spec.get("instrument"))
    if instrument:
        jax.config.update("jax_transfer_guard", "log")
    compiles, compile_s = counter.snapshot()
    hits, wall, cpu = counter.hits, counter.charged_wall, counter.charged_cpu
    with probes.count_host_syncs() if instrument else nullcontext(Counter()) as syncs:  # type: ignore[attr-defined]  # both context managers
        loaded = loaded or preload(spec)
        try:
            module = loaded.get()
            entry = resolve_entry(module, spec.get("entry"))
            capture = spec.get("capture")
            recorders = install_recorders(module, capture) if capture else {}
            output = probes.block(entry())
            done, cpu_done = time.perf_counter(), time.process_time()
            jax.effects_barrier()  # every jax.debug.print has printed
        finally:
            printed = loaded.output.stop() if loaded.output else None
    jax.config.update("jax_transfer_guard", "allow")
    _unlimit_memory()
    save_tree(probes.flatten(output), Path(spec["out_dir"]), "outputs")
    save_output(printed, Path(spec["out_dir"]))
    saving = sum(r.wall_s for r in recorders.values()), sum(r.cpu_s for r in recorders.values())
    return {  # the times are the program's own: compilations charged, saving calls left out
        "total_s": done - loaded.start + counter.charged_wall - wall - saving[0],
        "cpu_s": cpu_done - loaded.cpu_start + counter.charged_cpu - cpu - saving[1],
        "capture_s": saving[0],
        "compiles": counter.count - compiles,
        "cache_hits": counter.hits - hits,
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
        "x64": bool(jax.config.jax_enable_x64),  # type: ignore[attr-defined]  # a jax flag
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


def execute(spec: dict[str, Any], loaded: Loaded | None = None) -> dict[str, Any]:
    """Run the spec's mode; every failure of user code becomes a status, not a crash.

    `loaded`: the program, loaded before jax was imported (a fresh interpreter).
    `environ` in the result names the variables the program set, changed or removed
    (in a fresh interpreter, also those jax sets when the program imports it).
    """
    counter = probes.CompileCounter()
    if spec.get("compilation_cache"):
        xla_cache.enable(spec["compilation_cache"], counter)
    jax.devices()  # initialise the backend before the memory cap
    environ = loaded.environ if loaded else dict(os.environ)
    _limit_memory(spec.get("memory_limit"))
    try:
        result = _run_mode(spec, counter, loaded)
    finally:
        _unlimit_memory()
    return {**result, "environ": environ_changes(environ)}


def _run_mode(
    spec: dict[str, Any], counter: probes.CompileCounter, loaded: Loaded | None
) -> dict[str, Any]:
    try:
        if spec["mode"] == "bench":
            from autoopt.verify.bench import run_bench

            return {"status": "ok", **run_bench(spec, counter, loaded)}
        return {"status": "ok", **run_program(spec, counter, loaded)}
    except SystemExit as exc:
        return {"status": "exit", "code": str(exc.code)}
    except EntryError as exc:
        return {"status": "entry_error", "message": str(exc)}
    except BaseException as exc:
        traceback.clear_frames(exc.__traceback__)  # free the user's locals before reporting
        _unlimit_memory()
        return describe_exception(exc, spec["search_path"])


def main(argv: list[str], loaded: Loaded | None = None) -> int:
    """Run the spec at `argv[1]`; the result goes to `result.json` in its out_dir."""
    spec = json.loads(Path(argv[1]).read_text())
    result = execute(spec, loaded)
    result.update(environment())
    out = Path(spec["out_dir"])
    (out / "result.tmp").write_text(json.dumps(result))
    os.replace(out / "result.tmp", out / "result.json")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
