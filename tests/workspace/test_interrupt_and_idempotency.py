"""SIGINT during `rewrite --write` leaves every file old or new; reruns change nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.workspace.conftest import CLEAN, fixable, make_tree, snapshot

N = 300
#: An allocator setting: moving it changes memory, not results, so the fix is safe.
ENV_AFTER_IMPORT = (
    'import os\n\nimport jax\n\nos.environ["XLA_PYTHON_CLIENT_ALLOCATOR"] = "f{i}_"\n'
)


def _old(i: int) -> str:
    return ENV_AFTER_IMPORT.format(i=i)


def _new(i: int) -> str:
    from autoopt.api import optimize_source

    return optimize_source(_old(0)).new_source.replace("f0_", f"f{i}_")


def test_sigint_leaves_every_file_old_or_new(tmp_path):
    make_tree(tmp_path, {f"pkg/m{i:03d}.py": _old(i) for i in range(N)})
    first = tmp_path / "pkg" / "m000.py"
    env = {**os.environ, "AUTOOPT_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "autoopt", "rewrite", "pkg", "--write", "--select", "AO701"]
    proc = subprocess.Popen(
        [*command, "--jobs", "1", "--no-progress"],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 100
    original = first.read_bytes()
    while first.read_bytes() == original and proc.poll() is None and time.monotonic() < deadline:
        pass
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    new_count = 0
    for i in range(N):
        text = (tmp_path / "pkg" / f"m{i:03d}.py").read_text()
        compile(text, f"m{i:03d}.py", "exec")
        assert text in (_old(i), _new(i)), i
        new_count += text != _old(i)
    assert new_count >= 1, stderr
    leftovers = [p.name for p in (tmp_path / "pkg").iterdir() if not p.name.endswith(".py")]
    assert leftovers == []
    print(f"SIGINT after {new_count}/{N} files rewritten; exit {proc.returncode}")


def test_second_rewrite_changes_nothing(tmp_path, cli):
    files = {f"fix{i}.py": fixable(i) for i in range(6)}
    files |= {f"clean{i}.py": CLEAN for i in range(4)}
    files["crlf.py"] = fixable(9).replace("\n", "\r\n")
    make_tree(tmp_path, files)
    before = snapshot(tmp_path)
    first = cli("rewrite", ".", "--write", "--jobs", "2", cwd=tmp_path)
    assert first.exit_code == 0, first.stderr
    after_first = snapshot(tmp_path)
    changed = {k for k in before if before[k] != after_first[k]}
    assert changed == {*(f"fix{i}.py" for i in range(6)), "crlf.py"}
    crlf = (tmp_path / "crlf.py").read_bytes()
    assert b"jax.jit" in crlf and crlf.count(b"\n") == crlf.count(b"\r\n")
    for flags in ([], ["--no-cache"]):
        again = cli("rewrite", ".", "--write", *flags, cwd=tmp_path)
        assert again.exit_code == 0
        assert "rewrote 0 file(s)" in again.stderr
        assert snapshot(tmp_path) == after_first
    shown = cli("rewrite", ".", cwd=tmp_path)
    assert shown.exit_code == 0 and shown.stdout == ""


def _sigint_default() -> None:
    """A SIGINT that Python turns into KeyboardInterrupt, even when the test run itself
    ignores it (as a shell's background job does)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_sigint_stops_the_worker_pool_at_once(tmp_path):
    make_tree(tmp_path, {f"m{i:03d}.py": fixable(i) * 40 for i in range(120)})  # ~10 s of work
    env = {**os.environ, "AUTOOPT_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "autoopt", "check", ".", "--jobs", "2", "--no-progress"]
    proc = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, preexec_fn=_sigint_default
    )
    deadline = time.monotonic() + 100
    while len(_children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    workers = _children(proc.pid)
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    proc.wait(timeout=60)
    assert proc.returncode == 130
    assert time.monotonic() - start < 10
    assert len(workers) == 2
    assert not [w for w in workers if Path(f"/proc/{w}").exists()]
