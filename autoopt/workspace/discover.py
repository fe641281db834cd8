"""Find the Python files under the paths a user names."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from autoopt.model import AutooptError

SUFFIXES = (".py", ".pyi")
_SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".autoopt_cache",
    "node_modules",
}


def discover(paths: Sequence[str], exclude: Sequence[str] = ()) -> Iterator[tuple[str, Path]]:
    """(display path, path) for each file: named files as given, folders walked."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            yield from _walk(given, path, exclude)
        elif path.exists():
            yield given, path
        else:
            raise AutooptError(given, "no such file or directory")


def _excluded(rel: str, exclude: Sequence[str]) -> bool:
    return any(fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(Path(rel).name, pat) for pat in exclude)


def _walk(given: str, root: Path, exclude: Sequence[str]) -> Iterator[tuple[str, Path]]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(SUFFIXES):
                continue
            path = Path(folder) / name
            rel = os.path.relpath(path, root)
            if not _excluded(rel, exclude):
                yield os.path.join(given, rel), path
