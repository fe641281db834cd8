"""Test and benchmark files are checked but not rewritten, unless `--include-tests`.

A rewrite there would change what a test checks or what a benchmark measures.
Which files they are: the gitignore-style patterns `Settings.test_files` (`tests/`,
`test_*.py`, `benchmarks/`, ...), matched against each path relative to the project
root (the folder with pyproject.toml or .git above the first path), else the
current folder; paths outside it are matched whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from autoopt.config import Settings, project_root
from autoopt.workspace.runner import FileOutcome


def matcher(patterns: Sequence[str], root: Path) -> Callable[[str], bool]:
    """Whether a display path is a test or benchmark file under these patterns."""
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    root = Path(os.path.abspath(root))

    def matches(display: str) -> bool:
        path = Path(os.path.abspath(display))
        relative = path.relative_to(root) if path.is_relative_to(root) else path
        return spec.match_file(relative.as_posix())

    return matches


def hold_back(
    outcomes: Sequence[FileOutcome], settings: Settings, paths: Sequence[str]
) -> list[FileOutcome]:
    """Undo the rewrite of every test or benchmark file (its findings stay); those files.

    Nothing is held back with `settings.include_tests`.
    """
    changed = [o for o in outcomes if o.result and o.result.changed]
    if settings.include_tests or not changed:
        return []
    root = project_root(Path(paths[0] if paths else ".")) or Path.cwd()
    is_test = matcher(settings.test_files, root)
    held = [o for o in changed if is_test(o.display)]
    for outcome in held:
        assert outcome.result is not None
        outcome.result.new_source, outcome.result.applied = outcome.result.source, []
    return held
