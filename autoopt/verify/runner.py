"""Runs a worker process with a timeout and says how it ended.

This is the only place autoopt starts user code; the autoopt process itself never
imports jax. Workers are forked from a server that has imported jax already
(`autoopt.verify.forkserver`), or started from scratch where there is none, and
where the program's environment settings must take effect (`autoopt.verify.fresh`).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the directory holding `autoopt/`
# Starts the worker without running autoopt's package __init__ files: they import
# libcst and the rules, about a second per process that verification does not need.
BOOTSTRAP = """
import sys, types
root = sys.argv.pop(1)
for name in ("autoopt", "autoopt.verify"):
    package = types.ModuleType(name)
    package.__path__ = [root + "/" + name.replace(".", "/")]
    sys.modules[name] = package
from autoopt.verify.{module} import main
sys.exit(main(sys.argv))
"""
TRANSFER_LINE = re.compile(r"(host-to-device|device-to-host|device-to-device) transfer:")
SERVER_GRACE_S = 30.0  # past a run's timeout, the server itself is taken for stuck
GLOG_LINE = re.compile(r"^[IWEF]\d{4} ")  # jax's C++ log lines, not the program's output


@dataclass
class WorkerRun:
    """How a worker ended: `status` is ok, error, oom, exit, entry_error, timeout or signal."""

    status: str
    reason: str
    result: dict[str, Any] = field(default_factory=dict)
    out_dir: Path = Path()
    transfers: dict[str, int] = field(default_factory=dict)  # logged by transfer_guard, by kind
    last_error_line: str = ""  # the program's last stderr line, jax's own log lines left out
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def scan_stderr(path: Path) -> tuple[dict[str, int], str]:
    """Count the transfers jax logged, and keep the program's last line of stderr
    (none if the program never started, e.g. under a stuck fork server)."""
    counts: dict[str, int] = {}
    last = ""
    if not path.exists():
        return counts, last
    with open(path, errors="replace") as lines:
        for line in lines:
            if match := TRANSFER_LINE.search(line):
                counts[match.group(1)] = counts.get(match.group(1), 0) + 1
            elif line.strip() and not GLOG_LINE.match(line):
                last = line.strip()[:300]
    return counts, last


def worker_env() -> dict[str, str]:
    """The child's environment: real device peaks, jax's logs visible, stable hashing,
    and not the user's compilation cache (a run compiles, or uses the verification's)."""
    env = dict(os.environ)
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    env["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    env.setdefault("PYTHONHASHSEED", "0")
    env["TF_CPP_MIN_LOG_LEVEL"] = "0"  # transfer_guard logs through glog warnings
    return env


def run_worker(
    spec: dict[str, Any], out_dir: Path, *, timeout: float, cwd: Path, fresh: bool = False
) -> WorkerRun:
    """Run the worker on `spec` in a fresh process and classify how it ended.

    The process is forked from the fork server where there is one (Linux), and
    started from scratch otherwise or when the server is gone. With `fresh`, it is
    always a new `python` that loads the program before jax is imported
    (`autoopt.verify.fresh`), so the program's environment settings take effect.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    spec = {**spec, "out_dir": str(out_dir)}
    spec_path = out_dir / "spec.json"
    spec_path.write_text(json.dumps(spec))
    start = time.perf_counter()
    forked = (
        FORK_SERVER.run(spec_path, out_dir, cwd, timeout) if FORK_SERVER and not fresh else None
    )
    module = "fresh" if fresh else "worker"
    returncode, timed_out = forked or _start_worker(spec_path, out_dir, cwd, timeout, module)
    run = classify(returncode, out_dir, timed_out, timeout)
    run.wall_s = time.perf_counter() - start
    return run


def _start_worker(
    spec_path: Path, out_dir: Path, cwd: Path, timeout: float, module: str
) -> tuple[int, bool]:
    """Start `python` on `autoopt.verify.<module>`: its exit status, and whether it timed out."""
    command = [sys.executable, "-c", _bootstrap(module), str(PACKAGE_ROOT), str(spec_path)]
    with open(out_dir / "stdout.txt", "wb") as out, open(out_dir / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env=worker_env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        timed_out = _wait(proc, timeout)
    return proc.returncode, timed_out


def _bootstrap(module: str) -> str:
    return BOOTSTRAP.replace("{module}", module)


class ForkServer:
    """This process's client of `autoopt.verify.forkserver`, started on first use."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._env: dict[str, str] = {}
        self._lock = threading.Lock()
        atexit.register(self.close)

    def run(self, spec: Path, out_dir: Path, cwd: Path, timeout: float) -> tuple[int, bool] | None:
        """Exit status and timeout of one forked run; None if the server is not there.

        A server that does not answer well past the timeout is stopped, and the run
        counts as timed out.
        """
        request = {"spec": str(spec), "cwd": str(cwd), "out_dir": str(out_dir), "timeout": timeout}
        with self._lock:
            try:
                line = self._ask(request, timeout + SERVER_GRACE_S)
            except BaseException:  # Ctrl-C: the running child goes with the server
                self.close()
                raise
            if not line:
                self.close()
                return (-signal.SIGKILL, True) if line is None else None
            reply = json.loads(line)
            return reply["returncode"], reply["timed_out"]

    def _ask(self, request: dict[str, Any], patience: float) -> bytes | None:
        """The server's answer line; b"" if it is gone, None if it is stuck."""
        proc = self._server()
        assert proc.stdin and proc.stdout
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], patience)
            return proc.stdout.readline() if ready else None
        except OSError:
            return b""

    def _server(self) -> subprocess.Popen[bytes]:
        env = worker_env()
        if self._proc is None or self._proc.poll() is not None or env != self._env:
            self.close()
            self._env = env
            self._proc = subprocess.Popen(
                [sys.executable, "-c", _bootstrap("forkserver"), str(PACKAGE_ROOT)],
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        return self._proc

    def close(self) -> None:
        """Stop the server (it kills a running child first)."""
        if self._proc is None:
            return
        proc, self._proc = self._proc, None
        with contextlib.suppress(OSError):
            proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream:
                with contextlib.suppress(OSError):
                    stream.close()


FORK_SERVER = ForkServer() if sys.platform == "linux" else None


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    """Wait for `proc`, then kill what is left of its process group. True if it timed out."""
    try:
        proc.wait(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return timed_out


def classify(returncode: int, out_dir: Path, timed_out: bool, timeout: float) -> WorkerRun:
    """Turn the exit status and result file into a WorkerRun with a readable reason."""
    transfers, last = scan_stderr(out_dir / "stderr.txt")
    run = WorkerRun("ok", "", out_dir=out_dir, transfers=transfers, last_error_line=last)
    tail = f": {last}" if last else ""
    result_file = out_dir / "result.json"
    if timed_out:
        run.status, run.reason = "timeout", f"timed out after {timeout:g} s"
    elif result_file.exists():
        run.result = json.loads(result_file.read_text())
        run.status, run.reason = run.result["status"], _result_reason(run.result)
    elif returncode < 0:
        run.status, run.reason = "signal", _signal_reason(-returncode) + tail
    else:
        run.status = "exit"
        run.reason = f"exited with status {returncode} before returning (os._exit or a crash)"
        run.reason += tail
    return run


def _result_reason(result: dict[str, Any]) -> str:
    status = result["status"]
    if status in ("error", "oom"):
        where = f" (at {' > '.join(result['at'])})" if result.get("at") else ""
        return f"{result['type']}: {result['message']}{where}"
    if status == "exit":
        return f"called sys.exit({result['code']}) before returning"
    return result.get("message", "")


def _signal_reason(number: int) -> str:
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    if number == signal.SIGKILL:
        return f"killed by {name} (most likely the out-of-memory killer)"
    return f"killed by {name}"
