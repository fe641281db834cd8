"""Find the source files under the paths a user names.

Folders are walked honouring `.gitignore` files (pathspec, git's rules), the
`--exclude` globs and `[tool.autoopt] exclude`; in a git work tree, a file git
tracks is walked even where an ignore pattern matches it (`git ls-files`, asked
only when a pattern first hides something). Symlinked folders are followed
once; a link back into a folder already being walked is reported as a loop.
Problems (a folder that vanished, a loop, a missing path) are yielded as
`AutooptError`s so the caller reports them and carries on; the source files and
folders left out, and why, are counted.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from autoopt.model import AutooptError

if TYPE_CHECKING:
    import pathspec

SUFFIXES = (".py", ".pyi", ".ipynb")
_SKIP_DIRS = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".autoopt_cache",
    "node_modules",
}

Found = tuple[str, Path]
IGNORED, EXCLUDED = "ignored by .gitignore", "excluded"
#: (why, is a folder) -> how many source files (or folders) a walk left out
Skips = Counter[tuple[str, bool]]


@dataclass
class Discovery:
    """The files found (display path, path), in walk order, and the problems met."""

    files: list[Found] = field(default_factory=list)
    errors: list[AutooptError] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # paths named that hold no source file
    skipped: Skips = field(default_factory=Counter)


def discover(
    paths: Sequence[str], exclude: Sequence[str] = (), *, gitignore: bool = True
) -> Discovery:
    """Every file under `paths`, each once; errors collected, never raised."""
    found = Discovery()
    seen: set[Path] = set()
    for given in paths:
        yielded = False
        for item in iter_files([given], exclude, gitignore=gitignore, skipped=found.skipped):
            yielded = True
            if isinstance(item, AutooptError):
                found.errors.append(item)
            elif (key := _identity(item[1])) not in seen:
                seen.add(key)
                found.files.append(item)
        if not yielded:
            found.empty.append(given)
    return found


def iter_files(
    paths: Sequence[str],
    exclude: Sequence[str] = (),
    *,
    gitignore: bool = True,
    skipped: Skips | None = None,
) -> Iterator[Found | AutooptError]:
    """(display path, path) per file, or an error; named files as given, folders walked.
    What is left out is counted in `skipped`."""
    excluded = _spec(exclude) if exclude else None
    skips = Counter() if skipped is None else skipped
    for given in paths:
        path = Path(given)
        if path.is_dir():
            yield from _Walker(given, path, excluded, gitignore, skips).walk()
        elif path.is_file():
            if excluded is None or not excluded.match_file(path.as_posix()):
                yield given, path
            else:
                skips[(EXCLUDED, False)] += 1
        else:
            yield AutooptError(given, _missing_cause(path))


def _spec(lines: Iterable[str]) -> pathspec.PathSpec:
    """Git's pattern rules (pathspec loads here: naming files needs no patterns)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _missing_cause(path: Path) -> str:
    if not path.is_symlink():
        return "no such file or directory"
    try:
        path.resolve(strict=True)
    except RuntimeError:
        return "symlink loop"
    except OSError as exc:
        return "symlink loop" if exc.errno == 40 else "broken symlink"
    return "not a regular file"


def _identity(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


class _Walker:
    """One folder walk: per-folder .gitignore specs, tracked files, excludes, loop detection."""

    def __init__(
        self,
        given: str,
        root: Path,
        excluded: pathspec.PathSpec | None,
        gitignore: bool,
        skips: Skips,
    ) -> None:
        self.given = given
        self.root = root
        self.excluded = excluded
        self.gitignore = gitignore
        self.skips = skips
        self.tracked: _Tracked | None = None  # asked of git when a pattern first matches
        self.ignores: list[tuple[Path, pathspec.PathSpec]] = []
        if gitignore:
            self.ignores = _ancestor_ignores(root)

    def walk(self) -> Iterator[Found | AutooptError]:
        yield from self._folder(self.root, {_identity(self.root)})

    def _folder(self, folder: Path, active: set[Path]) -> Iterator[Found | AutooptError]:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            yield AutooptError(self._display(folder), f"cannot list folder: {_cause(exc)}")
            return
        pushed = self.gitignore and self._push_gitignore(folder)
        for entry in entries:
            yield from self._entry(Path(entry.path), entry, active)
        if pushed:
            self.ignores.pop()

    def _entry(
        self, path: Path, entry: os.DirEntry, active: set[Path]
    ) -> Iterator[Found | AutooptError]:
        is_dir = _is_dir(entry)
        if is_dir and (entry.name in _SKIP_DIRS or entry.name.startswith(".")):
            return
        if not is_dir and not entry.name.endswith(SUFFIXES):
            return
        why = self._left_out(path, is_dir)
        if why is not None:
            self.skips[(why, is_dir)] += 1
            return
        if is_dir:
            real = _identity(path)
            if real in active:
                yield AutooptError(self._display(path), "symlink loop; not followed")
                return
            yield from self._folder(path, active | {real})
        else:
            yield self._display(path), path

    def _left_out(self, path: Path, is_dir: bool) -> str | None:
        """Why a source file or folder is not walked (EXCLUDED, IGNORED), or None."""
        rel = path.relative_to(self.root).as_posix() + ("/" if is_dir else "")
        if self.excluded is not None and self.excluded.match_file(rel):
            return EXCLUDED
        if not any(spec.match_file(_relative(path, base, is_dir)) for base, spec in self.ignores):
            return None
        if self.tracked is None:
            self.tracked = _Tracked.of(self.root)
        return None if self.tracked.holds(path, is_dir) else IGNORED

    def _push_gitignore(self, folder: Path) -> bool:
        spec = _gitignore(folder)
        if spec is not None:
            self.ignores.append((folder, spec))
        return spec is not None

    def _display(self, path: Path) -> str:
        return os.path.join(self.given, os.path.relpath(path, self.root))


@dataclass(frozen=True)
class _Tracked:
    """The files git tracks under a folder, and the folders that hold them (absolute)."""

    files: frozenset[str]
    folders: frozenset[str]

    @classmethod
    def of(cls, root: Path) -> _Tracked:
        """From `git ls-files` in `root`; nothing outside a git work tree or without git."""
        names = _git_ls_files(root)
        files = frozenset(os.path.join(os.path.abspath(root), n) for n in names)
        folders = frozenset(os.path.dirname(f) for f in files)
        return cls(files, frozenset(p for f in folders for p in _ancestors(f)) | folders)

    def holds(self, path: Path, is_dir: bool) -> bool:
        return os.path.abspath(path) in (self.folders if is_dir else self.files)


def _ancestors(folder: str) -> Iterator[str]:
    parent = os.path.dirname(folder)
    while parent != folder:
        yield parent
        folder, parent = parent, os.path.dirname(parent)


def _git_ls_files(root: Path) -> list[str]:
    """Paths git tracks under `root`, relative to it; [] where git cannot say."""
    import shutil
    import subprocess  # only when an ignore pattern hides something

    git = shutil.which("git")
    start = root.absolute()
    if git is None or not any((d / ".git").exists() for d in (start, *start.parents)):
        return []
    try:
        done = subprocess.run(
            [git, "ls-files", "-z", "--cached"],
            cwd=root,
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    return [os.fsdecode(name) for name in done.stdout.split(b"\0") if name]


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _relative(path: Path, base: Path, is_dir: bool) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/") + ("/" if is_dir else "")


def _cause(exc: OSError) -> str:
    if exc.errno == 2:
        return "no such folder (did it vanish during the run?)"
    return exc.strerror or str(exc)


def _gitignore(folder: Path) -> pathspec.PathSpec | None:
    try:
        lines = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return _spec(lines)


def _ancestor_ignores(root: Path) -> list[tuple[Path, pathspec.PathSpec]]:
    """The .gitignore specs above `root` in its git work tree.

    None when they ignore `root` itself: a folder named explicitly is walked.
    """
    specs = [(d, s) for d in _ancestor_repo_dirs(root) if (s := _gitignore(d))]
    named = root.absolute()
    if any(s.match_file(_relative(named, base, True)) for base, s in specs):
        return []
    return specs


def _ancestor_repo_dirs(root: Path) -> list[Path]:
    """The folders above `root` up to the git work tree's top; none outside git."""
    start = root.absolute()
    if (start / ".git").exists():
        return []
    chain: list[Path] = []
    for folder in start.parents:
        chain.append(folder)
        if (folder / ".git").exists():
            return list(reversed(chain))
    return []
