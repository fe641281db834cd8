"""Other files of the same project: the functions a module imports from them.

A call into another file of the project (`from physics import laplacian`) is
followed into that file's own analysis, so its summary (purity, array-ness,
return value) counts as if the function were local. The project is the folder
that holds `pyproject.toml`, `setup.py`, `setup.cfg` or `.git` above the file (or
the file's own folder); a module is one of its files, found from the module name
relative to the project, its `src/` folder or the importing file's folder.
Installed packages are never read: what they do stays unknown.

Each file read is recorded as a dependency of the module that reads it, with a
digest of its bytes, so that cached results are dropped when it changes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function

_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_CACHE: dict[Path, tuple[tuple[int, int], ModuleContext | None, str]] = {}


def project_function(ctx: ModuleContext, qual: str) -> tuple[ModuleContext, Function] | None:
    """The module-level function `qual` (`pkg.mod.fn`) of another project file, with
    that file's analysis; None when it is not one (a package, a class, unknown)."""
    module, _, name = qual.rpartition(".")
    if not module:
        return None
    found = project_module(ctx, module)  # one file, one lookup
    if found is None:
        return None
    fn = found.graph.functions.get(name)
    if fn is None or fn.scope != MODULE:
        return None
    return found, fn


def project_module(ctx: ModuleContext, module: str) -> ModuleContext | None:
    """The analysis of the project file `import module` loads (`pkg.mod`); None when it
    is not one (an installed package, a file autoopt cannot read)."""
    return (ctx.origin or ctx).per_module(_module_context, module)


def dependencies(ctx: ModuleContext) -> dict[str, str]:
    """The project files this module's analysis read, with a digest of their bytes."""
    return dict(ctx.per_module(_read_files))


def _read_files(ctx: ModuleContext) -> dict[str, str]:
    """Where the files read are recorded (path -> digest) as the analysis reads them."""
    return {}


def module_files(path: str, module: str) -> list[Path]:
    """The project files that `import module` in the file `path` may load: the module,
    or its package's `__init__.py` (none for an installed package or a non-file)."""
    here = _real_file(path)
    return (
        [c for c in _candidates(here, _root(here), module) if c.resolve() != here] if here else []
    )


def read_text(ctx: ModuleContext, path: Path) -> str | None:
    """The text of a project file read without its analysis (a configuration, a module
    whose imports alone matter), recorded as a dependency of `ctx`; None when unreadable."""
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    (ctx.origin or ctx).per_module(_read_files)[str(path)] = hashlib.sha256(raw).hexdigest()
    return text


def root(path: str) -> Path | None:
    """The project folder of the file `path`, or None when it is not a file."""
    here = _real_file(path)
    return _root(here) if here else None


def _module_context(ctx: ModuleContext, module: str) -> ModuleContext | None:
    """The analysis of the project file `import module` loads (once per module analysed:
    the lookup stats several candidate files)."""
    located = ctx.per_module(_located)
    if located is None:
        return None
    here, root = located
    if module.partition(".")[0] not in ctx.per_module(_first_names):
        return None  # no file or folder of that name where `_candidates` looks
    for candidate in _candidates(here, root, module):
        if candidate.resolve() == here:
            return None
        loaded = _load(candidate)
        if loaded is not None:
            context, digest = loaded
            ctx.per_module(_read_files)[str(candidate)] = digest
            return context
    return None


def _located(ctx: ModuleContext) -> tuple[Path, Path] | None:
    """The module's file, resolved, and its project folder (None when it is no file)."""
    here = _real_file(ctx.path)
    return (here, _root(here)) if here else None


def _real_file(path: str) -> Path | None:
    candidate = Path(path)
    return candidate.resolve() if candidate.suffix == ".py" and candidate.is_file() else None


def _first_names(ctx: ModuleContext) -> frozenset[str]:
    """The names a module `_candidates` finds may start with: the folders and the stems
    of the `.py` files in the folders it looks in (one listing each, where most modules
    a file imports are not there: `jax`, `numpy`)."""
    located = ctx.per_module(_located)
    names: set[str] = set()
    for base in _bases(*located) if located else ():
        try:
            names.update(e.removesuffix(".py") for e in os.listdir(base))
        except OSError:
            continue
    return frozenset(names)


def _bases(here: Path, root: Path) -> list[str]:
    """The folders a module name is looked up from: the project's, its `src/`, the
    importing file's."""
    return list(dict.fromkeys([str(root), os.path.join(root, "src"), str(here.parent)]))


def _candidates(here: Path, root: Path, module: str) -> list[Path]:
    """The files `module` may be, that exist (tested on strings: most do not, and a
    `Path` per name costs more than the `stat`)."""
    parts = module.split(".")
    found = []
    for base in _bases(here, root):
        stem = os.path.join(base, *parts)
        for name in (f"{stem}.py", os.path.join(stem, "__init__.py")):
            if not os.path.isfile(name):
                continue
            path = Path(name)
            if _inside(path, root) and "site-packages" not in path.parts:
                found.append(path)
    return found


def _root(here: Path) -> Path:
    for folder in here.parents:
        name = str(folder)
        if any(os.path.exists(os.path.join(name, marker)) for marker in _MARKERS):
            return folder
    return here.parent


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _load(path: Path) -> tuple[ModuleContext, str] | None:
    """The file's analysis context (cached while its size and time stay the same)."""
    stat = path.stat()
    stamp = (stat.st_size, stat.st_mtime_ns)
    cached = _CACHE.get(path)
    if cached is None or cached[0] != stamp:
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        _CACHE[path] = (stamp, _parse(path, raw), digest)
    _, context, digest = _CACHE[path]
    return (context, digest) if context is not None else None


def _parse(path: Path, raw: bytes) -> ModuleContext | None:
    try:
        source = raw.decode("utf-8")
        return ModuleContext(str(path), source, cst.parse_module(source))
    except (UnicodeDecodeError, cst.ParserSyntaxError, RecursionError):
        return None  # a file autoopt cannot read: what it does stays unknown
