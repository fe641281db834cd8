"""Whether a module imports jax: itself, or through the project modules it imports.

A worker process runs the module that launched it (spawn imports it again) and the
module of its target; either may reach jax only through another file of the
project (`from model import train`, where model.py imports jax). Only the import
statements of project files matter here, so they are read with Python's `ast`
(several times faster than a LibCST parse) and kept while their text is the same.
Every file read becomes a dependency of the module that asks (analysis/core/project.py);
installed packages other than jax count as not importing it.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import module_files, read_text

LIMIT = 100  # project files read for one answer; past them, jax counts as not reached


@dataclass(frozen=True)
class _Import:
    level: int  # the leading dots of a relative import
    module: str
    names: tuple[str, ...]  # what `from module import ...` names (maybe submodules)


_Summary = tuple[bool, tuple[_Import, ...]]  # imports jax itself; every import
_SUMMARIES: dict[tuple[str, int, int], _Summary] = {}


def reaches_jax(ctx: ModuleContext, path: str | Path | None = None) -> bool:
    """Whether the project file `path` (default: `ctx`'s module) imports jax anywhere,
    directly or through the project modules it imports, transitively (the nearest
    first, at most `LIMIT` files); the files read are `ctx`'s dependencies."""
    if path is None and ctx.imports.uses_jax():
        return True
    start = str(path or ctx.path)
    seen, todo = {start}, deque([start])
    while todo and len(seen) <= LIMIT:
        current = todo.popleft()
        text = ctx.source if current == ctx.path else read_text(ctx, Path(current))
        found = _summary(current, text) if text is not None else None
        if found is None:
            continue
        if found[0]:
            return True
        for imported in (str(p) for imp in found[1] for p in _paths(current, imp)):
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return False


def first_statement_reaching_jax(ctx: ModuleContext) -> int | None:
    """The index of the first top-level statement that imports jax, directly or
    through a project module."""
    for index, stmt in enumerate(ctx.module.body):
        if type(stmt) is cst.SimpleStatementLine and _line_reaches_jax(ctx, stmt):
            return index
    return None


def _line_reaches_jax(ctx: ModuleContext, line: cst.SimpleStatementLine) -> bool:
    if not any(type(small) in (cst.Import, cst.ImportFrom) for small in line.body):
        return False
    found = _summary("", ctx.module.code_for_node(line).strip())
    if found is None:
        return False
    paths = [p for imp in found[1] for p in _paths(ctx.path, imp)]
    return found[0] or any(reaches_jax(ctx, path) for path in paths)


def _summary(path: str, text: str) -> _Summary | None:
    """Whether the code imports jax itself, and all its imports (None: it does not parse)."""
    key = (path, len(text), hash(text))
    if key not in _SUMMARIES:
        if len(_SUMMARIES) > 20_000:  # a long-running editor session: start again
            _SUMMARIES.clear()
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            return None
        imports: list[_Import] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imports += [_Import(0, alias.name, ()) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = tuple(a.name for a in node.names if a.name != "*")
                imports.append(_Import(node.level, node.module or "", names))
        jax = any(not i.level and i.module.split(".")[0] == "jax" for i in imports)
        _SUMMARIES[key] = (jax, tuple(imports))
    return _SUMMARIES[key]


def _paths(importer: str, imp: _Import) -> list[Path]:
    """The project files an import in the file `importer` may load."""
    if imp.level:
        return _relative_paths(Path(importer), imp.level, imp.module, imp.names)
    modules = [imp.module, *(f"{imp.module}.{name}" for name in imp.names)]
    return [path for module in modules if module for path in module_files(importer, module)]


def _relative_paths(importer: Path, level: int, module: str, names: tuple[str, ...]) -> list[Path]:
    """`from ..pkg import a`: the files of `pkg` and of its submodule `a`, if they exist."""
    if level > len(importer.parents):
        return []
    base = importer.parents[level - 1].joinpath(*filter(None, module.split(".")))
    found = []
    for folder, name in [(base.parent, base.name), *((base, n) for n in names)]:
        for path in (folder / f"{name}.py", folder / name / "__init__.py"):
            if name and path.is_file() and path.resolve() != importer.resolve():
                found.append(path)
    return found
