"""Static checking needs no jax (it is the `verify` extra): `check` and `rewrite` run in an
interpreter where importing jax, jaxlib, NumPy or SciPy fails, worker processes included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.workspace.conftest import fixable, make_tree

ROOT = Path(__file__).resolve().parents[2]
AO101 = ("--select", "AO101")
BLOCKER = '''import sys


class _NoJax:
    """Fail every import of the numeric stack, as in an environment without it."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("jax", "jaxlib", "numpy", "scipy"):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None


sys.meta_path.insert(0, _NoJax())
'''


def autoopt(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`autoopt ARGS` in a fresh interpreter whose sitecustomize blocks jax (children too)."""
    make_tree(tmp_path / "site", {"sitecustomize.py": BLOCKER})
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)]),
        "AUTOOPT_CACHE_DIR": str(tmp_path / "cache"),
    }
    command = [sys.executable, "-c", "from autoopt.frontends.cli import main; main()", *args]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)


def test_the_blocker_blocks(tmp_path):
    make_tree(tmp_path / "site", {"sitecustomize.py": BLOCKER})
    probe = subprocess.run(
        [sys.executable, "-c", "import numpy"],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
        capture_output=True,
        text=True,
    )
    assert probe.returncode == 1
    assert "No module named 'numpy' (blocked)" in probe.stderr


def test_check_and_rewrite_never_import_jax(tmp_path):
    make_tree(tmp_path / "src", {"a.py": fixable(0), "b.py": fixable(1)})
    check = autoopt(tmp_path, "check", "src", "--jobs", "2", "--no-progress")  # every rule
    assert check.returncode == 1, check.stderr
    assert [line for line in check.stdout.splitlines() if " AO101 " in line] == [
        f"src/{name}.py:4:5: AO101 `step{n}` is called in a loop without `jax.jit`: "
        "add `@jax.jit` [fix: safe]"
        for n, name in enumerate("ab")
    ]
    diff = autoopt(tmp_path, "rewrite", "src", "--no-progress", *AO101)
    assert diff.returncode == 1, diff.stderr
    assert diff.stdout.count("+@jax.jit") == 2
    write = autoopt(tmp_path, "rewrite", "src", "--write", "--no-progress", "--no-cache", *AO101)
    assert write.returncode == 0, write.stderr
    assert "@jax.jit\ndef step0" in (tmp_path / "src" / "a.py").read_text()


def test_verify_without_jax_says_how_to_install_it(tmp_path):
    make_tree(tmp_path, {"a.py": fixable(0)})
    cases = {
        "verify": ["verify", "a.py"],
        "rewrite --verify": ["rewrite", "a.py", "--verify"],
        "rewrite --verify-tests": ["rewrite", "a.py", "--write", "--verify-tests", "true"],
    }
    for command, args in cases.items():
        result = autoopt(tmp_path, *args, "--no-progress")
        assert result.returncode == 2
        assert result.stderr == (
            f"error: autoopt {command} needs jax, which is not installed; install it with"
            " pip install 'autoopt[verify]' (for a GPU, also the jax build for it, e.g."
            " pip install 'jax[cuda12]')\n"
        )
    assert (tmp_path / "a.py").read_text() == fixable(0)
