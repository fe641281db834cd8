"""Test and benchmark files are checked but not rewritten, unless `--include-tests`.

A rewrite there would change what a test checks or what a benchmark measures.
Which files they are: the gitignore-style patterns `Settings.test_files` (`tests/`,
`test_*.py`, `benchmarks/`, ...), matched against each path relative to the project
root (the folder with pyproject.toml or .git above the first path), else the
current folder; paths outside it are matched whole.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from fnmatch import fnmatchcase
from pathlib import Path

from autoopt.config import Settings, project_root
from autoopt.workspace.runner import FileOutcome

_NAME = re.compile(r"[A-Za-z0-9_.*?-]+")


def matcher(patterns: Sequence[str], root: Path) -> Callable[[str], bool]:
    """Whether a display path is a test or benchmark file under these patterns."""
    named = all(_names_one_part(pattern) for pattern in patterns)
    match = _by_part(patterns) if named else _gitignore(patterns)
    root = Path(os.path.abspath(root))

    def matches(display: str) -> bool:
        path = Path(os.path.abspath(display))
        relative = path.relative_to(root) if path.is_relative_to(root) else path
        return match(relative.as_posix())

    return matches


def _names_one_part(pattern: str) -> bool:
    """A name or glob of one path part (`tests/`, `test_*.py`): no inner slash, no `**`."""
    name = pattern.removesuffix("/")
    return bool(_NAME.fullmatch(name)) and "**" not in name and name.strip(".") != ""


def _by_part(patterns: Sequence[str]) -> Callable[[str], bool]:
    """Git's rules for one-part patterns, without pathspec (it imports asyncio, 0.05 s).

    Such a pattern matches a path when it matches any of its parts; with a
    trailing slash, any part but the last (a folder).
    """
    files = [_glob(p) for p in patterns if not p.endswith("/")]
    folders = [_glob(p.removesuffix("/")) for p in patterns if p.endswith("/")]

    def match(posix: str) -> bool:
        *parents, name = [part for part in posix.split("/") if part]
        return any(glob(part) for part in (*parents, name) for glob in files) or any(
            glob(part) for part in parents for glob in folders
        )

    return match


def _glob(pattern: str) -> Callable[[str], bool]:
    """`fnmatchcase` against `pattern`; for a name, or one `*` and no other wildcard
    (the defaults), without compiling a regular expression."""
    head, star, tail = pattern.partition("*")
    if any(c in head + tail for c in "*?["):
        return lambda part: fnmatchcase(part, pattern)
    if not star:
        return pattern.__eq__
    least = len(head) + len(tail)
    return lambda part: len(part) >= least and part.startswith(head) and part.endswith(tail)


def _gitignore(patterns: Sequence[str]) -> Callable[[str], bool]:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(patterns).match_file


def test_files(settings: Settings, paths: Sequence[str]) -> Callable[[str], bool]:
    """Whether a display path of a run over `paths` is a test or benchmark file.

    With `settings.include_tests` such a file is analysed with `Settings.test_file`:
    its rewrite leaves the bodies of test functions alone (api.check_context)."""
    root = project_root(Path(paths[0] if paths else ".")) or Path.cwd()
    return matcher(settings.test_files, root)


def hold_back(
    outcomes: Sequence[FileOutcome], settings: Settings, paths: Sequence[str]
) -> list[FileOutcome]:
    """Undo the rewrite of every test or benchmark file (its findings stay); those files.

    Nothing is held back with `settings.include_tests`.
    """
    changed = [o for o in outcomes if o.result and o.result.changed]
    if settings.include_tests or not changed:
        return []
    is_test = test_files(settings, paths)
    held = [o for o in changed if is_test(o.display)]
    for outcome in held:
        assert outcome.result is not None
        outcome.result.new_source, outcome.result.applied = outcome.result.source, []
    return held
