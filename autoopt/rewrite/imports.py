"""Add the imports a fix needs, where isort (Ruff's `I` rules) puts them.

`from m import x` joins the first top-level `from m import ...` line that imports a name
without `as` (Ruff keeps `as` imports apart), in Ruff's order of names: constants, then
classes, then the rest, case aside; one wider than the line length is wrapped in
parentheses, one name a line, as Ruff wraps it (a lone name keeps the line's comment).
A line with a comment inside, a star import, or one under `try` or `if` is never joined.

Otherwise an import joins a block of top-level imports: the one importing the same
package, else the first holding its section (`__future__`, the standard library, other
absolute imports, relative imports), else the last. There it goes before the first
import of its section that sorts after it (`import x` before `from x import y`, by
module name), or after the last; with none of its section, it opens its own, a blank
line apart, between the sections around it. Code right below a block is kept the blank
lines isort wants. An import under `if TYPE_CHECKING:` binds nothing at run time: it
does not count as there.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

import libcst as cst

from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.names import Import, collect_imports, dotted, statement_imports
from autoopt.config import DEFAULT_LINE_LENGTH
from autoopt.model import RequireImport

FUTURE, STDLIB, OTHER, RELATIVE = range(4)


def add_imports(
    module: cst.Module, required: Iterable[RequireImport], line_length: int = DEFAULT_LINE_LENGTH
) -> cst.Module:
    """The module with the missing imports inserted (those it binds already are not)."""
    # an import in a function binds nothing here
    bindings = collect_imports(module, _run_time_imports).module_bindings
    missing = [
        r
        for r in sorted(required, key=lambda r: (r.module, r.name or "", r.alias or ""))
        if not _bound(bindings, r)
    ]
    body: list[cst.BaseStatement] = list(module.body)
    for req in missing:
        if req.name is None or req.alias is not None or not _merge(body, req, line_length):
            _insert(body, req)
    return module.with_changes(body=body)


def _local(req: RequireImport) -> str:
    """The name the import binds (`jax` for `import jax.numpy`)."""
    return req.alias or req.name or req.module.split(".")[0]


def _bound(bindings: dict[str, str], req: RequireImport) -> bool:
    """Whether the module binds what `req` asks for (`import a.b` is never taken as
    bound: `import a` alone need not load `a.b`)."""
    if req.name is not None:
        return bindings.get(req.alias or req.name) == f"{req.module}.{req.name}"
    return bindings.get(req.alias or req.module) == req.module


def _run_time_imports(stmt: cst.BaseStatement) -> list[Import]:
    """A top-level statement's imports, none under `if TYPE_CHECKING:` (not run)."""
    if type(stmt) is cst.If and dotted(stmt.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
        rest = stmt.orelse
        if rest is None or type(rest) is cst.If:
            return _run_time_imports(rest) if rest is not None else []
        return statement_imports(cst.If(cst.Name("else_"), rest.body))  # the `else:` block
    return statement_imports(stmt)


def _spelled(req: RequireImport) -> str:
    alias = f" as {req.alias}" if req.alias else ""
    if req.name is not None:
        return f"from {req.module} import {req.name}{alias}"
    return f"import {req.module}{alias}"


def _merge(body: list[cst.BaseStatement], req: RequireImport, line_length: int) -> bool:
    """Add `req`'s name to the first `from <module> import` line above its first use that
    the file would join it to; False when there is none."""
    assert req.name is not None
    first_use = _first_use(body, req.name)
    for index, stmt in enumerate(body[:first_use]):
        imp = _joinable(stmt, req.module)
        if imp is None or type(stmt) is not cst.SimpleStatementLine:
            continue
        joined = _joined(stmt, imp, req.name, line_length)
        if joined is not None:
            body[index] = joined
            return True
    return False


def _joinable(stmt: cst.BaseStatement, module: str) -> cst.ImportFrom | None:
    """The statement's `from <module> import ...` if it is all the line holds, imports a
    name without `as`, and has no comment inside it."""
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
        return None
    imp = stmt.body[0]
    if type(imp) is not cst.ImportFrom or imp.relative or isinstance(imp.names, cst.ImportStar):
        return None
    if imp.module is None or dotted(imp.module) != module:
        return None
    if all(alias.asname is not None for alias in imp.names):
        return None
    return None if "#" in cst.Module([]).code_for_node(imp) else imp


def _joined(
    stmt: cst.SimpleStatementLine, imp: cst.ImportFrom, name: str, line_length: int
) -> cst.SimpleStatementLine | None:
    """`stmt` importing `name` too, in Ruff's order and wrapping; None where Ruff's
    layout of its comment is not known here (a long line with a comment)."""
    if isinstance(imp.names, cst.ImportStar):
        return None
    names = [_alias_text(alias) for alias in imp.names]
    comment = stmt.trailing_whitespace.comment
    note = f"  {comment.value}" if comment is not None else ""
    alone = len(names) == 1
    at = next((i for i, n in enumerate(names) if member_key(n) > member_key(name)), len(names))
    names.insert(at, name)
    module = dotted(imp.module) if imp.module is not None else ""
    line = f"from {module} import {', '.join(names)}"
    if not imp.lpar and len(line) <= line_length and not (comment and alone):
        text = line + note
    elif comment is not None and not alone:
        return None
    else:  # Ruff keeps a lone name's comment on it
        rows = [f"    {n},{note if n != name else ''}\n" for n in names]
        text = f"from {module} import (\n" + "".join(rows) + ")"
    joined = cst.parse_statement(text)
    assert type(joined) is cst.SimpleStatementLine
    return joined.with_changes(leading_lines=stmt.leading_lines)


def _alias_text(alias: cst.ImportAlias) -> str:
    name = dotted(alias.name) or ""
    asname = dotted(alias.asname.name) if alias.asname is not None else None
    return f"{name} as {asname}" if asname else name


def member_key(name: str) -> tuple[int, str, str]:
    """Ruff's isort order of imported names (`order-by-type`): constants, classes, the
    rest; each case-insensitively."""
    head = name.split(" ")[0]
    kind = 0 if len(head) > 1 and head.isupper() else 1 if head[:1].isupper() else 2
    return kind, head.lower(), name


def _insert(body: list[cst.BaseStatement], req: RequireImport) -> None:
    stmt = cst.parse_statement(_spelled(req))
    package = req.module.split(".")[0]
    first_use = _first_use(body, _local(req))
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
    by module name, case aside, then by alias or first imported name."""
    imp = top_imports(stmt)[0]
    module = _module_of(imp)
    if type(imp) is cst.ImportFrom:
        names = imp.names
        first = "*" if isinstance(names, cst.ImportStar) else _alias_text(names[0])
        return (True, module.lower(), module, member_key(first))
    alias = imp.names[0].asname  # type: ignore[index]  # an Import's names
    alias_name = dotted(alias.name) if alias is not None else None
    return (False, module.lower(), module, (0, alias_name or "", ""))


def _imports_package(imp: cst.Import | cst.ImportFrom, package: str) -> bool:
    return _module_of(imp).split(".")[0] == package


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        type(stmt) is cst.SimpleStatementLine
        and len(stmt.body) == 1
        and type(stmt.body[0]) is cst.Expr
        and type(stmt.body[0].value) in (cst.SimpleString, cst.ConcatenatedString)
    )
