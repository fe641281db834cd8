"""Add `import x` statements a fix needs, where isort (Ruff's `I` rules) puts them.

An import joins a block of top-level imports: the one importing the same package, else
the first holding its section (`__future__`, the standard library, other absolute
imports, relative imports), else the last. There it goes before the first import of its
section that sorts after it (`import x` before `from x import y`, by module name), or
after the last; with none of its section, it opens its own, a blank line apart, between
the sections around it. Code right below a block is kept the blank lines isort wants.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

import libcst as cst

from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.names import collect_imports, dotted
from autoopt.model import RequireImport

FUTURE, STDLIB, OTHER, RELATIVE = range(4)


def add_imports(module: cst.Module, required: Iterable[RequireImport]) -> cst.Module:
    """The module with the missing imports inserted (those it binds already are not)."""
    bindings = collect_imports(module).module_bindings  # an import in a function binds nothing here
    missing = [
        r
        for r in sorted(required, key=lambda r: (r.module, r.alias or ""))
        if bindings.get(r.alias or r.module) != r.module
    ]
    body: list[cst.BaseStatement] = list(module.body)
    for req in missing:
        _insert(body, req)
    return module.with_changes(body=body)


def _insert(body: list[cst.BaseStatement], req: RequireImport) -> None:
    stmt = cst.parse_statement(
        f"import {req.module} as {req.alias}" if req.alias else f"import {req.module}"
    )
    package = req.module.split(".")[0]
    first_use = _first_use(body, req.alias or package)
    blocks = [b for b in _blocks(body) if first_use is None or b[-1] < first_use]
    if blocks:
        block = _choose(body, blocks, package)
        at, before, separate = _position(body, block, _section(package), _key(stmt))
    else:
        at = first_use if first_use is not None else _after_docstring(body)
        before, separate = at < len(body), False
    body.insert(at, _placed(body, at, stmt, before, separate))
    if not blocks or not before:  # the block's last line now
        _space_below(body, at)


def _blocks(body: Sequence[cst.BaseStatement]) -> list[list[int]]:
    """The indices of each run of consecutive top-level import lines."""
    runs: list[list[int]] = []
    for index, stmt in enumerate(body):
        if not top_imports(stmt):
            continue
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _choose(body: Sequence[cst.BaseStatement], blocks: list[list[int]], package: str) -> list[int]:
    """The block importing `package`, else the first holding its section, else the last."""
    for block in blocks:
        if any(_imports_package(i, package) for n in block for i in top_imports(body[n])):
            return block
    section = _section(package)
    return next((b for b in blocks if section in {line_section(body[n]) for n in b}), blocks[-1])


def _position(
    body: Sequence[cst.BaseStatement], block: list[int], section: int, key: tuple
) -> tuple[int, bool, bool]:
    """Where in `block` an import of `section` sorting as `key` goes: (index, whether
    before an import there, whether it opens a section of its own)."""
    same = [n for n in block if line_section(body[n]) == section]
    if same:
        later = [n for n in same if _key(body[n]) > key]
        return (later[0], True, False) if later else (same[-1] + 1, False, False)
    after = [n for n in block if line_section(body[n]) > section]
    return (after[0], True, True) if after else (block[-1] + 1, False, True)


def _placed(
    body: list[cst.BaseStatement], at: int, stmt: cst.BaseStatement, before: bool, separate: bool
) -> cst.BaseStatement:
    """`stmt` as inserted at `at`: `before` the statement there, it takes the blank lines
    and comments above that one (left a blank line below when `separate`); else a blank
    line apart from the imports above when `separate`."""
    blank = [cst.EmptyLine()]
    if before:
        pushed = body[at]
        lead = list(pushed.leading_lines)  # type: ignore[attr-defined]  # every statement has them
        body[at] = pushed.with_changes(leading_lines=blank if separate else ())
        if at and _is_docstring(body[at - 1]) and not lead:  # Ruff's blank line after it
            lead = blank
        return stmt.with_changes(leading_lines=lead)
    return stmt.with_changes(leading_lines=blank if separate else ())


def _space_below(body: list[cst.BaseStatement], at: int) -> None:
    """Code right below the import at `at` gets the blank lines isort and Ruff's
    formatter want (two above a function or class, else one)."""
    below = at + 1
    if below < len(body) and not top_imports(body[below]) and not _blank_above(body[below]):
        stmt = body[below]
        blank = 2 if type(stmt) in (cst.FunctionDef, cst.ClassDef) else 1
        lead = stmt.leading_lines  # type: ignore[attr-defined]  # every statement has them
        body[below] = stmt.with_changes(leading_lines=[*[cst.EmptyLine()] * blank, *lead])


def _blank_above(stmt: cst.BaseStatement) -> bool:
    lines = stmt.leading_lines  # type: ignore[attr-defined]  # every statement has them
    return bool(lines) and lines[0].comment is None


def _first_use(body: Sequence[cst.BaseStatement], name: str) -> int | None:
    """The first top-level statement above every import that reads `name` (a notebook's
    cell may use what a later cell imports), if any."""
    for position, stmt in enumerate(body):
        if top_imports(stmt):
            continue
        if any(n.value == name for n in read_names(stmt)):
            return position
    return None


def _after_docstring(body: Sequence[cst.BaseStatement]) -> int:
    return 1 if body and _is_docstring(body[0]) else 0


def top_imports(stmt: cst.BaseStatement) -> list[cst.Import | cst.ImportFrom]:
    """The imports of a statement line (none for other statements)."""
    if type(stmt) is not cst.SimpleStatementLine:
        return []
    return [s for s in stmt.body if type(s) is cst.Import or type(s) is cst.ImportFrom]


def _module_of(imp: cst.Import | cst.ImportFrom) -> str:
    if type(imp) is cst.ImportFrom:
        return "." * len(imp.relative) + ((dotted(imp.module) if imp.module else None) or "")
    return dotted(imp.names[0].name) or ""  # type: ignore[index]  # an Import's names


def _section(module: str) -> int:
    if module.startswith("."):
        return RELATIVE
    if module == "__future__":
        return FUTURE
    return STDLIB if module.split(".")[0] in sys.stdlib_module_names else OTHER


def line_section(stmt: cst.BaseStatement) -> int:
    """The isort section of an import line (by its first import)."""
    return _section(_module_of(top_imports(stmt)[0]))


def _key(stmt: cst.BaseStatement) -> tuple:
    """isort's order inside a section: `import x` first, then `from x import y`, each
    by module name, case aside."""
    imp = top_imports(stmt)[0]
    module = _module_of(imp)
    alias = imp.names[0].asname if type(imp) is cst.Import else None
    alias_name = dotted(alias.name) if alias is not None else None
    return (type(imp) is cst.ImportFrom, module.lower(), module, alias_name or "")


def _imports_package(imp: cst.Import | cst.ImportFrom, package: str) -> bool:
    return _module_of(imp).split(".")[0] == package


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        type(stmt) is cst.SimpleStatementLine
        and len(stmt.body) == 1
        and type(stmt.body[0]) is cst.Expr
        and type(stmt.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )
