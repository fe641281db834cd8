"""`rewrite --verify --verify-jobs N`: a Ctrl-C stops every worker, fork server and program."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SLEEPY = """\
import time

import jax.numpy as jnp


def chain(x):
    for _ in range(10):
        x = jnp.sin(x) * 0.5 + jnp.cos(x) * 0.25
    return x


def main():
    time.sleep(120)
    x = jnp.linspace(0.0, 1.0, 100)
    for _ in range(10):
        x = chain(x)
    return x
"""


def _sigint_default() -> None:
    """Python's KeyboardInterrupt on SIGINT, even where the test run ignores it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _children(pid: str) -> list[str]:
    """The processes `pid` started, from any of its threads."""
    children = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += (task / "children").read_text().split()
        except OSError:
            continue
    return children


def _alive(pid: str) -> bool:
    """Running, not ended (a zombie whose parent, here init, has not reaped it yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _programs(pid: int) -> set[str]:
    """The programs being verified: below autoopt, its workers, below them their fork servers."""
    servers = [s for worker in _children(str(pid)) for s in _children(worker)]
    return {program for server in servers for program in _children(server)}


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_sigint_stops_parallel_verification_with_its_programs(tmp_path):
    for name in ("one.py", "two.py"):
        (tmp_path / name).write_text(SLEEPY)
    command = [sys.executable, "-m", "autoopt", "rewrite", ".", "--verify", "--verify-jobs", "2"]
    command += ["--no-progress", "--no-cache"]
    env = {**os.environ, "AUTOOPT_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, preexec_fn=_sigint_default
    )
    deadline = time.monotonic() + 120
    programs: set[str] = set()
    while len(programs) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
        programs = _programs(proc.pid)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    proc.wait(timeout=60)
    assert proc.returncode == 130
    assert time.monotonic() - start < 10
    assert len(programs) == 2, programs
    time.sleep(1)
    assert not [p for p in programs if _alive(p)]
