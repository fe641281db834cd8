"""Other files of the same project: the functions a module imports from them.

A call into another file of the project (`from physics import laplacian`) is
followed into that file's own analysis, so its summary (purity, array-ness,
return value) counts as if the function were local. The project is the folder
that holds `pyproject.toml`, `setup.py`, `setup.cfg` or `.git` above the file (or
the file's own folder); a module is one of its files, found from the module name
relative to the project, its `src/` folder or the importing file's folder.
Installed packages are never read: what they do stays unknown.

Each file read is recorded as a dependency of the module that reads it, with a
digest of its bytes, so that cached results are dropped when it changes; so are the
files the analyses of those files read.

The other way round, `importing_files` finds the project's files that may import a
module (an import statement names it: `analysis/facts/reflection.py` reads what they
write into it). The listing of the project's folders (hidden folders, `__pycache__`,
`node_modules`, `site-packages` and `venv` left out) is kept while no folder's time
changes, each file's text while its size and time stay the same. Only the files that
may import the module become its dependencies: a cached result does not notice a file
that starts naming it until the module itself changes.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function

_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_CACHE: dict[Path, tuple[tuple[int, int], ModuleContext | None, str]] = {}
_TEXTS: dict[str, tuple[tuple[int, int], bytes]] = {}  # path -> its stamp and bytes
_LISTINGS: dict[str, tuple[dict[str, int], list[str]]] = {}  # root -> folder times, files
_SKIPPED_FOLDERS = frozenset({"__pycache__", "node_modules", "site-packages", "venv"})


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
    """The project files this module's analysis read, with a digest of their bytes, and
    those their analyses read in turn (the files importing a module it reads from)."""
    found = dict(ctx.per_module(_read_files))
    todo = list(found)
    while todo:
        cached = _CACHE.get(Path(todo.pop()))
        other = cached[1] if cached is not None else None
        for path, digest in other.per_module(_read_files).items() if other is not None else ():
            if path not in found and path != ctx.path:
                found[path] = digest
                todo.append(path)
    return found


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


def loads_file(ctx: ModuleContext, module: str, target: Path, level: int = 0) -> bool:
    """Whether `import module` in `ctx`'s file may load the file `target` (its own file
    included); with `level` leading dots, `from .. import module`."""
    located = ctx.per_module(_located)
    if located is None:
        return False
    here, top = located
    if level:
        if level > len(here.parents):
            return False
        stem = here.parents[level - 1].joinpath(*module.split("."))
        found = [
            p for p in (stem.with_name(f"{stem.name}.py"), stem / "__init__.py") if p.is_file()
        ]
    elif module.partition(".")[0] in ctx.per_module(_first_names):
        found = _candidates(here, top, module)
    else:
        return False
    return any(path.resolve() == target for path in found)


def importing_files(ctx: ModuleContext, stem: str, words: frozenset[str]) -> list[ModuleContext]:
    """The analyses of the project's other files that may import a module named `stem`
    (an import statement names it, or the file holds one of `words` and the name), each
    recorded as a dependency of `ctx`."""
    located = ctx.per_module(_located)
    if located is None:
        return []
    here, top = located
    name = re.escape(stem.encode())
    imports = re.compile(  # on one line (continued with `\`), or in parentheses
        rb"\b(?:import|from)[ \t](?:\\\n|[^\n])*?\b" + name + rb"\b"
        rb"|\bimport[ \t]*\([^)]*\b" + name + rb"\b"
    )
    found = []
    for path in _project_files(str(top)):
        text = _text(path)
        if stem.encode() not in text or path == str(here):
            continue
        if not imports.search(text) and not any(w.encode() in text for w in words):
            continue
        loaded = _load(Path(path))
        if loaded is not None:
            (ctx.origin or ctx).per_module(_read_files)[path] = loaded[1]
            found.append(loaded[0])
    return found


def _project_files(top: str) -> list[str]:
    """The `.py` files under the project folder, in a stable order (the listing kept
    while no folder's time changes)."""
    cached = _LISTINGS.get(top)
    if cached is not None and all(_mtime(d) == t for d, t in cached[0].items()):
        return cached[1]
    folders: dict[str, int] = {}
    found = []
    for current, inner, files in os.walk(top):
        inner[:] = sorted(f for f in inner if f[0] != "." and f not in _SKIPPED_FOLDERS)
        folders[current] = _mtime(current)
        found += [os.path.join(current, n) for n in sorted(files) if n.endswith(".py")]
    _LISTINGS[top] = (folders, found)
    return found


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def _text(path: str) -> bytes:
    """The file's bytes (kept while its size and time stay the same)."""
    try:
        stat = os.stat(path)
    except OSError:
        return b""
    stamp = (stat.st_size, stat.st_mtime_ns)
    cached = _TEXTS.get(path)
    if cached is None or cached[0] != stamp:
        try:
            with open(path, "rb") as file:
                cached = (stamp, file.read())
        except OSError:
            cached = (stamp, b"")
        _TEXTS[path] = cached
    return cached[1]


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
