"""Workers forked from the fork server behave as fresh processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autoopt.verify import Candidate, Verdict, verify_candidates
from autoopt.verify.runner import FORK_SERVER, run_worker
from autoopt.verify.trees import load_tree

pytestmark = pytest.mark.skipif(FORK_SERVER is None, reason="the fork server is Linux only")

COUNTER = """\
import json

import jax.numpy as jnp


def main():
    json.runs = getattr(json, "runs", 0) + 1  # module state that a reused process would keep
    print("hello from the program")
    print("to stderr", file=__import__("sys").stderr)
    return jnp.asarray(json.runs)
"""


def spec_for(path: Path) -> dict[str, object]:
    return {
        "mode": "run",
        "program": str(path),
        "module": "prog",
        "search_path": [str(path.parent)],
        "entry": None,
    }


def test_every_run_starts_from_a_clean_process(tmp_path, program) -> None:
    path = program(COUNTER)
    pids = set()
    for i in range(3):
        run = run_worker(spec_for(path), tmp_path / f"out{i}", timeout=60, cwd=path.parent)
        assert run.ok, run.reason
        assert (tmp_path / f"out{i}" / "stdout.txt").read_text() == "hello from the program\n"
        assert "to stderr" in (tmp_path / f"out{i}" / "stderr.txt").read_text()
        assert run.result["device"] and run.result["peak_rss"] > 0
        pids.add(FORK_SERVER._proc.pid)  # type: ignore[union-attr]
    outputs = [int(load_tree(tmp_path / f"out{i}", "outputs").leaves[0].value) for i in range(3)]
    assert outputs == [1, 1, 1] and len(pids) == 1


def test_a_dead_server_is_replaced(tmp_path, program) -> None:
    path = program(COUNTER)
    assert run_worker(spec_for(path), tmp_path / "a", timeout=60, cwd=path.parent).ok
    os.kill(FORK_SERVER._proc.pid, signal.SIGKILL)  # type: ignore[union-attr]
    run = run_worker(spec_for(path), tmp_path / "b", timeout=60, cwd=path.parent)
    assert run.ok, run.reason
    assert run_worker(spec_for(path), tmp_path / "c", timeout=60, cwd=path.parent).ok


RANDOM = """\
import jax.numpy as jnp
import numpy as np


def main():
    return jnp.asarray(np.random.rand(4)) * 2
"""


def test_unseeded_host_randomness_differs_run_to_run(program, fast) -> None:
    path = program(RANDOM)
    candidate = Candidate("T", "harmless", 6, RANDOM.replace("* 2", "+ 0.0 * 2"))
    row = verify_candidates(path, [candidate], fast).rows[0]
    assert row.verdict is Verdict.NOT_EQUIVALENT
    assert "the original itself differs run to run" in row.reason


def test_the_server_forks_before_any_backend_starts(tmp_path, program) -> None:
    """No XLA threads in the server: it has the threads of a process that only imports jax."""
    path = program(COUNTER)
    assert run_worker(spec_for(path), tmp_path / "out", timeout=60, cwd=path.parent).ok
    server = FORK_SERVER._proc.pid  # type: ignore[union-attr]
    threads = "import os, jax; print(len(os.listdir('/proc/self/task')))"
    imported = subprocess.run([sys.executable, "-c", threads], capture_output=True, text=True)
    assert len(os.listdir(f"/proc/{server}/task")) <= int(imported.stdout)  # a backend adds ~12


HANGS = """\
import os
import time
from pathlib import Path


def main():
    Path("pid").write_text(str(os.getpid()))
    time.sleep(600)
"""


def test_a_killed_autoopt_takes_its_running_program_down(tmp_path, program) -> None:
    path = program(HANGS)
    out, cwd = str(tmp_path / "out"), str(path.parent)
    client = f"""
from pathlib import Path
from autoopt.verify.runner import run_worker
run_worker({spec_for(path)!r}, Path({out!r}), timeout=600, cwd=Path({cwd!r}))
"""
    proc = subprocess.Popen([sys.executable, "-c", client])
    pid_file = path.parent / "pid"
    deadline = time.monotonic() + 60
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(pid_file.read_text())
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists()


def test_a_stuck_server_is_stopped_and_the_run_counts_as_timed_out(
    tmp_path, program, monkeypatch
) -> None:
    from autoopt.verify import runner

    path = program(COUNTER)
    assert run_worker(spec_for(path), tmp_path / "a", timeout=60, cwd=path.parent).ok
    stuck = FORK_SERVER._proc.pid  # type: ignore[union-attr]
    os.kill(stuck, signal.SIGSTOP)
    monkeypatch.setattr(runner, "SERVER_GRACE_S", 0.5)
    run = run_worker(spec_for(path), tmp_path / "b", timeout=1, cwd=path.parent)
    assert run.status == "timeout" and run.reason == "timed out after 1 s"
    assert not Path(f"/proc/{stuck}").exists() or _zombie(stuck)
    assert run_worker(spec_for(path), tmp_path / "c", timeout=60, cwd=path.parent).ok


def _zombie(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
