"""A process that imports jax once and forks a fresh worker for every run.

Starting Python and importing jax costs about a second; verifying the corpus starts
a few hundred workers. The server imports jax (without starting a backend, so it
has no XLA threads yet) and, per request, forks a child that runs
`autoopt.verify.worker.main` exactly as a fresh process would: its own session,
working directory, stdout/stderr files and backend. The server waits for the child,
kills its process group after the timeout, and answers with the exit status.

Protocol, one JSON line each way: `{"spec", "cwd", "out_dir", "timeout"}` in,
`{"returncode", "timed_out"}` out.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import time
from typing import Any, TextIO

POLL_S = 0.005  # how often the server checks whether the child has ended
PR_SET_PDEATHSIG = 1  # prctl: the signal a process gets when its parent dies
_running: list[int] = []  # the child being waited for, killed if the server is stopped
_client = os.getppid()  # the autoopt process this server works for


def serve(requests: TextIO, replies: TextIO) -> None:
    """Answer requests until `requests` closes."""
    from autoopt.verify import worker  # noqa: F401  (imported once, for every child)

    for line in requests:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request, replies)
        _running[:] = [pid]
        returncode, timed_out = _wait(pid, request["timeout"])
        _running.clear()
        replies.write(json.dumps({"returncode": returncode, "timed_out": timed_out}) + "\n")
        replies.flush()


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    """The child's exit status, killing its process group at the deadline or after it
    (or at once, with the server, if the autoopt process has died)."""
    deadline = time.monotonic() + timeout
    done, status = os.waitpid(pid, os.WNOHANG)
    while not done and time.monotonic() < deadline:
        if os.getppid() != _client:  # autoopt was killed: so is its run
            _stop()
        time.sleep(POLL_S)
        done, status = os.waitpid(pid, os.WNOHANG)
    _kill_group(pid)  # the program's own subprocesses, or the child at the deadline
    if not done:
        _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), not done


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _child(request: dict[str, Any], replies: TextIO) -> None:
    """Become a fresh worker process; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.setsid()
        _die_with_server()
        replies.close()
        os.chdir(request["cwd"])
        _redirect(request["out_dir"])
        _reseed()
        from autoopt.verify import worker

        sys.argv = ["-c", request["spec"]]
        code = worker.main(sys.argv)
    except BaseException:  # report like an uncaught exception of a fresh process
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def _die_with_server() -> None:
    """Be killed when the server dies, however it dies: a server killed outright (e.g. by
    Ray, with the slot it serves) cannot kill its running child itself."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _redirect(out_dir: str) -> None:
    """stdin from /dev/null; stdout and stderr to the run's files, as a fresh process has."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, name in ((1, "stdout.txt"), (2, "stderr.txt")):
        target = os.open(os.path.join(out_dir, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    os.close(null)
    sys.stdin = open(os.devnull)  # noqa: SIM115  (the process's stdin until it exits)


def _reseed() -> None:
    """Fresh entropy for NumPy's global generator: every fresh process gets its own."""
    import numpy as np

    np.random.seed()


def _stop(*_: object) -> None:
    """On SIGTERM, or when autoopt is gone: take the running child's process group too."""
    for pid in _running:
        _kill_group(pid)
    os._exit(0)


def main(argv: list[str]) -> int:
    """Serve on a private copy of stdout; fd 1 itself goes to /dev/null."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    signal.signal(signal.SIGTERM, _stop)
    import jax  # noqa: F401  (the cost every child would otherwise pay)

    serve(sys.stdin, replies)
    return 0
