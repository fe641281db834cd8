"""Helpers for the batch tests: small trees, snapshots, the CLI in-process."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from autoopt.frontends.cli import app

FIXABLE = """import jax.numpy as jnp


def step{n}(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u)


def main():
    u = jnp.ones(8)
    for _ in range(10):
        u = step{n}(u, 0.1)
    return u
"""

CLEAN = "import math\n\n\ndef area(r):\n    return math.pi * r * r\n"


def fixable(n: int = 0) -> str:
    """A module with one safe AO101 fix (`@jax.jit` on `step<n>`)."""
    return FIXABLE.format(n=n)


def make_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> text or bytes) under `root`."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root


def snapshot(root: Path) -> dict[str, str]:
    """sha256 of every regular file under `root`, by relative path."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink() and ".autoopt_cache" not in p.parts
    }


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("AUTOOPT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Run `autoopt ARGS...` in this process from folder `cwd`."""

    def invoke(*args: str, cwd: Path) -> Result:
        monkeypatch.chdir(cwd)
        return CliRunner().invoke(app, list(args), catch_exceptions=False)

    return invoke
