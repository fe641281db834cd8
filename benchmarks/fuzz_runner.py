"""Runs the fuzzer's programs many to a forked child (benchmarks/fuzz_rewrites.py).

The worker has imported jax once, without a backend. A forked child starts the backend
once and runs a batch of programs, each loaded as a fresh module of its own name
(tests/hazards/runner.py `run_program`): its globals, functions and jit caches are its
own; what the programs share is the backend and its compiled primitives, which hold no
program state. The generated programs change no `jax.config`, seed no global RNG and
set no environment, which is what makes that sharing sound for them. A program that
runs past its time gets a `TimeoutError` in the child; a child that dies leaves the
programs it had not finished, and those run again one to a child.
"""

from __future__ import annotations

import pickle
import signal
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import forking  # noqa: E402
from tests.hazards import runner  # noqa: E402

PROGRAM_TIMEOUT_S = 60.0


def _alarm(signum: int, frame: object) -> None:
    raise TimeoutError(f"timed out after {PROGRAM_TIMEOUT_S:.0f} s")


def _child(folder: Path, out: Path, names: list[str]) -> int:
    """Run `names` one after the other in this (forked) process."""
    signal.signal(signal.SIGALRM, _alarm)
    for name in names:
        signal.setitimer(signal.ITIMER_REAL, PROGRAM_TIMEOUT_S)
        record = runner.run_program(folder, name)
        signal.setitimer(signal.ITIMER_REAL, 0)
        runner._write(out, name, record)
    return 0


def _batch(folder: Path, out: Path, names: list[str]) -> None:
    """Run `names` in one forked child; wait for it (a deadline of every program's time)."""
    pid = forking.fork(partial(_child, folder, out, names))
    forking.wait(pid, PROGRAM_TIMEOUT_S * (len(names) + 1))


def run_codes(codes: dict[str, str]) -> dict[str, dict]:
    """Run each program (name -> code); name -> runner record (see module doc)."""
    import jax  # noqa: F401  imported once; each child starts its own backend

    with tempfile.TemporaryDirectory(prefix="fuzz_") as tmp:
        folder, out = Path(tmp) / "src", Path(tmp) / "out"
        folder.mkdir()
        out.mkdir()
        names = []
        for name, code in codes.items():
            (folder / f"{name}.py").write_text(code)
            names.append(f"{name}.py")
        _batch(folder, out, names)
        left = [n for n in names if not (out / f"{n}.pkl").exists()]
        if left:
            runner._forked(folder, out, left, PROGRAM_TIMEOUT_S)
        return {n[:-3]: pickle.loads((out / f"{n}.pkl").read_bytes()) for n in names}
