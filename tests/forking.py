"""Forked children of an interpreter that has imported jax (or autoopt) once.

Starting Python and importing jax costs seconds of CPU; a test that runs many programs
pays it once: one interpreter imports jax without starting a backend and forks a child
per program. Each child starts its own backend and gets its own copy of the modules, so
what one program does to globals, jit caches, NumPy seeds or `jax.config` stays in its
child. A program that sets the environment jax reads (`XLA_FLAGS`, `JAX_*`) is not run
in such a child: it gets a fresh interpreter, where its settings come before `import jax`
(`isolated`). Used by tests/hazards/runner.py, tests/prefork.py and
benchmarks/fuzz_runner.py.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable


def isolated(source: str) -> bool:
    """Programs that set the environment jax reads must not run in a forked child
    of an interpreter that has imported jax already."""
    return "os.environ" in source or "putenv" in source


def fork(work: Callable[[], int]) -> int:
    """Run `work` in a forked child, in a session of its own; the child exits with the
    code `work` returns (1 if it raises). Returns the child's pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.setsid()
        code = work()
    except BaseException:  # the exit code reports it; the child must not return
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def wait(pid: int, timeout: float) -> int | None:
    """The child's exit code (minus the signal that ended it), or None when it ran past
    `timeout` seconds and was killed."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.005)
