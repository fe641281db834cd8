"""Add `import x` statements a fix needs, next to the module's own imports."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import libcst as cst

from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.names import collect_imports, dotted
from autoopt.model import RequireImport


def add_imports(module: cst.Module, required: Iterable[RequireImport]) -> cst.Module:
    """Insert the missing imports: before the first import of the same package, or
    after the last top-level import, or after the docstring and `__future__` imports."""
    bindings = collect_imports(module).module_bindings  # an import in a function binds nothing here
    missing = [
        r
        for r in sorted(required, key=lambda r: (r.module, r.alias or ""))
        if bindings.get(r.alias or r.module) != r.module
    ]
    body = list(module.body)
    for req in missing:
        stmt = cst.parse_statement(
            f"import {req.module} as {req.alias}" if req.alias else f"import {req.module}"
        )
        index = _insert_index(body, req.module.split(".")[0])
        first_use = _first_use(body, req.alias or req.module.split(".")[0], index)
        if first_use is not None:  # a statement above the import block needs it already
            earlier = [i for i, s in enumerate(body[:first_use]) if _top_imports(s)]
            if earlier:
                body.insert(earlier[-1] + 1, stmt)
                continue
            # Above that statement: in a notebook, in its cell (the cell's marker comment
            # stays above the import).
            stmt = stmt.with_changes(leading_lines=body[first_use].leading_lines)
            body[first_use] = body[first_use].with_changes(leading_lines=())
            body.insert(first_use, stmt)
            continue
        if index < len(body) and _top_imports(body[index]):
            # Keep the blank lines and comments above the import block above it.
            stmt = stmt.with_changes(leading_lines=body[index].leading_lines)
            body[index] = body[index].with_changes(leading_lines=())
        body.insert(index, stmt)
    return module.with_changes(body=body)


def _first_use(body: Sequence[cst.BaseStatement], name: str, index: int) -> int | None:
    """The first top-level statement before `index` that reads `name`, if any."""
    for position, stmt in enumerate(body[:index]):
        if not _top_imports(stmt) and any(n.value == name for n in read_names(stmt)):
            return position
    return None


def _top_imports(stmt: cst.BaseStatement) -> list[cst.Import | cst.ImportFrom]:
    if type(stmt) is not cst.SimpleStatementLine:
        return []
    return [s for s in stmt.body if type(s) is cst.Import or type(s) is cst.ImportFrom]


def _imports_package(imp: cst.Import | cst.ImportFrom, package: str) -> bool:
    if type(imp) is cst.ImportFrom:
        return imp.module is not None and (dotted(imp.module) or "").split(".")[0] == package
    return any((dotted(a.name) or "").split(".")[0] == package for a in imp.names)  # type: ignore[union-attr]  # an Import


def _is_future(stmt: cst.BaseStatement) -> bool:
    return any(
        type(i) is cst.ImportFrom and dotted(i.module or cst.Name("_")) == "__future__"
        for i in _top_imports(stmt)
    )


def _insert_index(body: Sequence[cst.BaseStatement], package: str) -> int:
    for index, stmt in enumerate(body):
        if any(_imports_package(i, package) for i in _top_imports(stmt)) and not _is_future(stmt):
            return index
    last_import = max((i for i, s in enumerate(body) if _top_imports(s)), default=None)
    if last_import is not None:
        return last_import + 1
    index = 0
    if body and _is_docstring(body[0]):
        index = 1
    while index < len(body) and _is_future(body[index]):
        index += 1
    return index


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        type(stmt) is cst.SimpleStatementLine
        and len(stmt.body) == 1
        and type(stmt.body[0]) is cst.Expr
        and type(stmt.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )
