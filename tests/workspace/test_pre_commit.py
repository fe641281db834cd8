"""The pre-commit hooks as docs/batch.md documents them, end to end: a local clone of this
tree pinned by commit, a project whose `.pre-commit-config.yaml` points at it, and
`pre-commit run --all-files` in a fresh PRE_COMMIT_HOME. pre-commit builds the hook's
virtualenv from PyPI (14-31 s here; docs/batch.md has the figures), which must hold no jax."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autoopt import optimize_source
from tests.workspace.conftest import fixable, make_tree

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: autoopt
      - id: autoopt-rewrite
"""
LOCAL = """repos:
  - repo: local
    hooks:
      - id: autoopt
        name: autoopt check
        entry: autoopt check --no-progress
        language: system
        types_or: [python, pyi, jupyter]
        require_serial: true
"""
NO_JAX = (
    "import importlib.util as u; print([m for m in ('jax', 'jaxlib', 'scipy') if u.find_spec(m)])"
)


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    done = subprocess.run(
        ["git", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def clone_of_this_tree(dest: Path) -> str:
    """This work tree as it is (uncommitted changes included) committed to a fresh repository
    at `dest`; the commit's hash."""
    listed = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for rel in filter(None, listed.split("\0")):
        source = ROOT / rel
        if source.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / rel)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "autoopt as tested")
    return git(dest, "rev-parse", "HEAD").strip()


@pytest.mark.network
def test_hooks_run_from_a_local_clone_without_jax(tmp_path):
    rev = clone_of_this_tree(tmp_path / "autoopt")
    project = make_tree(tmp_path / "project", {"step.py": fixable(0)})
    (project / ".pre-commit-config.yaml").write_text(
        CONFIG.format(repo=tmp_path / "autoopt", rev=rev)
    )
    git(project, "init", "-q")
    git(project, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"), "PYTHONPATH": ""}
    env["AUTOOPT_CACHE_DIR"] = str(tmp_path / "cache")
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    print(f"pre-commit first run: {time.perf_counter() - started:.1f} s")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "step.py:4:5: AO101 `step0` is called in a loop without `jax.jit`" in run.stdout
    assert "files were modified by this hook" in run.stdout
    assert (project / "step.py").read_text() == optimize_source(fixable(0)).new_source
    [python] = (tmp_path / "home").glob("repo*/py_env-*/bin/python")
    found = subprocess.run([python, "-c", NO_JAX], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_the_local_hook_runs_the_installed_autoopt(tmp_path):
    project = make_tree(
        tmp_path / "project", {"step.py": fixable(0), ".pre-commit-config.yaml": LOCAL}
    )
    git(project, "init", "-q")
    git(project, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    env["AUTOOPT_CACHE_DIR"] = str(tmp_path / "cache")
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "step.py:4:5: AO101 `step0` is called in a loop without `jax.jit`" in run.stdout
    assert (project / "step.py").read_text() == fixable(0)
