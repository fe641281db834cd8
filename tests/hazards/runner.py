"""Run hazard programs' `main()` and write what they return, one pickle per program.

Started by `test_hazards.py` as `python -c` in a fresh interpreter, never imported by
pytest itself (pytest does not import jax for this suite):

    python -c "<bootstrap>" REPO_ROOT SPEC.json

SPEC names a folder of programs (the originals, or one rewrite of all of them), the
program files to run and an output folder. With `"fork": true` the interpreter
imports jax once, and the libraries built on it that programs use (`_LIBRARIES`: none
starts a backend when imported), and forks one child per program: each child starts
its own backend and loads its program as a fresh module, so programs cannot see each
other's globals, jit caches, NumPy seeds or `jax.config` changes (tests/forking.py).
With `"fork": false` (programs that set `XLA_FLAGS`/`JAX_*` around `import jax`)
the one program runs in this interpreter before jax is imported.

Each result is normalised to plain Python and NumPy values that keep what the
comparison needs: container types and keys, array kind (JAX, NumPy, NumPy scalar,
Python number), dtype, shape, weak type and the values. What the program prints to
stdout (Python's prints, logging to stdout, `jax.debug.print` once its callbacks have
run) is recorded with it, in order.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import sys
import tempfile
import time
import traceback
from functools import partial
from pathlib import Path

from tests import forking


def normalise(value: object) -> object:
    """A picklable, jax-free description of `value` (see module doc)."""
    import numpy as np

    jax = sys.modules.get("jax")
    if jax is not None and isinstance(value, jax.Array):
        host = np.asarray(value)  # raises for a deleted (donated) buffer
        return ("jax", str(host.dtype), tuple(host.shape), bool(value.weak_type), host.copy())
    if isinstance(value, np.ndarray):
        return ("numpy", str(value.dtype), tuple(value.shape), False, value.copy())
    if isinstance(value, np.generic):
        return ("npscalar", str(value.dtype), (), False, np.asarray(value))
    if value is None or isinstance(value, bool | int | float | complex | str):
        return ("py", type(value).__name__, value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        fields = [(f, normalise(getattr(value, f))) for f in value._fields]
        return ("namedtuple", type(value).__name__, fields)
    if isinstance(value, list | tuple):
        return (type(value).__name__, [normalise(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(repr(k), normalise(v)) for k, v in value.items()])
    return ("object", type(value).__name__, repr(value))


def run_program(folder: Path, name: str) -> dict[str, object]:
    """`_run_program`, with what it prints to stdout (file descriptor 1) as `stdout`."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 1)
        try:
            record = _run_program(folder, name)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        record["stdout"] = out.read().decode("utf-8", errors="replace")
    return record


def _run_program(folder: Path, name: str) -> dict[str, object]:
    """Load `folder/name` as a fresh module, call `main()`, normalise the result."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        sys.path.insert(0, str(folder))
        spec = importlib.util.spec_from_file_location(Path(name).stem, folder / name)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        result = module.main()
        jax = sys.modules.get("jax")
        if jax is not None:
            result = jax.block_until_ready(result)
            jax.effects_barrier()  # `jax.debug.print` has printed
        value = normalise(result)
    except BaseException as exc:  # report any failure, including SystemExit
        lines = traceback.format_exception_only(type(exc), exc)
        message = "".join(lines).strip().splitlines()
        return {
            "ok": False,
            "error": " | ".join(message)[:600],
            "seconds": time.perf_counter() - start,
            "cpu": time.process_time() - cpu,
        }
    return {
        "ok": True,
        "value": value,
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
    }


def _write(out: Path, name: str, record: dict[str, object]) -> None:
    tmp = out / f"{name}.tmp"
    with open(tmp, "wb") as fh:
        pickle.dump(record, fh)
    os.replace(tmp, out / f"{name}.pkl")


#: Libraries imported once before the children fork, where installed (each import takes
#: about a second, which every program importing one would pay again).
_LIBRARIES = ("optax", "equinox", "flax.linen", "flax.nnx", "haiku", "diffrax")


def _forked(folder: Path, out: Path, names: list[str], timeout: float) -> None:
    import jax  # noqa: F401  imported once; each child starts its own backend
    import numpy  # noqa: F401

    for library in _LIBRARIES:
        if importlib.util.find_spec(library.split(".")[0]) is not None:
            importlib.import_module(library)

    for name in names:
        pid = forking.fork(partial(_run_and_write, folder, out, name))
        if forking.wait(pid, timeout) is None:
            _write(out, name, {"ok": False, "error": f"timed out after {timeout:.0f} s"})
        if not (out / f"{name}.pkl").exists():
            _write(out, name, {"ok": False, "error": "the program's process died"})


def _run_and_write(folder: Path, out: Path, name: str) -> int:
    _write(out, name, run_program(folder, name))
    return 0


def main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    folder, out = Path(spec["folder"]), Path(spec["out"])
    out.mkdir(parents=True, exist_ok=True)
    if spec["fork"]:
        _forked(folder, out, spec["programs"], spec.get("timeout", 60.0))
    else:
        for name in spec["programs"]:
            _write(out, name, run_program(folder, name))


if __name__ == "__main__":
    main(sys.argv[1])
