"""Runs a worker subprocess with a timeout and says how it ended.

This is the only place autoopt starts user code; the autoopt process itself never
imports jax.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
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
from autoopt.verify.worker import main
sys.exit(main(sys.argv))
"""
TRANSFER_LINE = re.compile(r"(host-to-device|device-to-host|device-to-device) transfer:")
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
    """Count the transfers jax logged, and keep the program's last line of stderr."""
    counts: dict[str, int] = {}
    last = ""
    with open(path, errors="replace") as lines:
        for line in lines:
            if match := TRANSFER_LINE.search(line):
                counts[match.group(1)] = counts.get(match.group(1), 0) + 1
            elif line.strip() and not GLOG_LINE.match(line):
                last = line.strip()[:300]
    return counts, last


def worker_env() -> dict[str, str]:
    """The child's environment: real device peaks, jax's logs visible, stable hashing."""
    env = dict(os.environ)
    env["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
    env.setdefault("PYTHONHASHSEED", "0")
    env["TF_CPP_MIN_LOG_LEVEL"] = "0"  # transfer_guard logs through glog warnings
    return env


def run_worker(spec: dict[str, Any], out_dir: Path, *, timeout: float, cwd: Path) -> WorkerRun:
    """Run `python -m autoopt.verify.worker` on `spec` and classify how it ended."""
    out_dir.mkdir(parents=True, exist_ok=True)
    spec = {**spec, "out_dir": str(out_dir)}
    spec_path = out_dir / "spec.json"
    spec_path.write_text(json.dumps(spec))
    command = [sys.executable, "-c", BOOTSTRAP, str(PACKAGE_ROOT), str(spec_path)]
    start = time.perf_counter()
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
    run = classify(proc.returncode, out_dir, timed_out, timeout)
    run.wall_s = time.perf_counter() - start
    return run


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
