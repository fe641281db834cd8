"""New code in the file's style: its quotes, the project's line length, and the blank
lines isort and Ruff's formatter want below an import block.

Only statements the edits made or rebuilt are touched (the others are the original
objects): their string literals take the file's prevailing quote where no quote is
inside, their lines longer than the limit are wrapped (`rewrite/wrap.py`), and at
module level what now follows an import line gets the blank lines isort wants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import libcst as cst

from autoopt.analysis.core.walk import child_list
from autoopt.config import DEFAULT_LINE_LENGTH
from autoopt.rewrite import wrap
from autoopt.rewrite.imports import line_section, top_imports


@dataclass
class _Restyle:
    old: set[int]  # ids of the original module's statements
    width: int
    indent: str
    original: cst.Module  # for its quotes

    @cached_property
    def quote(self) -> str:
        """The prevailing quote, read only when new code holds a string."""
        return _prevailing_quote(self.original)


def follow_style(
    original: cst.Module, rewritten: cst.Module, line_length: int = DEFAULT_LINE_LENGTH
) -> cst.Module:
    """`rewritten` with its new statements in `original`'s style."""
    old = _statement_ids(original.body)
    restyle = _Restyle(old, line_length, rewritten.default_indent, original)
    body = _block(rewritten.body, 0, restyle)
    pairs = set(zip(map(id, original.body[:-1]), map(id, original.body[1:]), strict=True))
    return rewritten.with_changes(body=_import_spacing(body, pairs))


def _statement_ids(body: Sequence[cst.BaseStatement]) -> set[int]:
    ids: set[int] = set()
    todo = list(body)
    while todo:
        stmt = todo.pop()
        ids.add(id(stmt))
        todo.extend(_blocks_of(stmt))
    return ids


def _blocks_of(stmt: object) -> list[cst.BaseStatement]:
    """The statements of the indented blocks right under a compound statement."""
    found: list[cst.BaseStatement] = []
    for name in ("body", "orelse", "handlers", "finalbody"):
        part = getattr(stmt, name, None)
        for item in part if isinstance(part, Sequence) else [part]:
            if type(item) is cst.IndentedBlock:
                found.extend(item.body)
            elif type(item) is cst.If:
                found.append(item)
            elif type(item) in (cst.Else, cst.ExceptHandler, cst.Finally):
                found.extend(_blocks_of(item))
    return found


def _block(
    body: Sequence[cst.BaseStatement], depth: int, restyle: _Restyle
) -> list[cst.BaseStatement]:
    return [stmt if id(stmt) in restyle.old else _statement(stmt, depth, restyle) for stmt in body]


def _statement(stmt: cst.BaseStatement, depth: int, restyle: _Restyle) -> cst.BaseStatement:
    room = restyle.width - depth * len(restyle.indent)
    if type(stmt) is cst.SimpleStatementLine:
        stmt = _quoted(stmt, restyle)
        return _wrapped_line(stmt, room, restyle.indent) or stmt
    stmt = _header(stmt, room, restyle)
    inner = getattr(stmt, "body", None)
    if type(inner) is cst.IndentedBlock:
        block = inner.with_changes(body=_block(inner.body, depth + 1, restyle))
        stmt = stmt.with_changes(body=block)
    orelse = getattr(stmt, "orelse", None)
    if type(orelse) is cst.If and id(orelse) not in restyle.old:
        stmt = stmt.with_changes(orelse=_statement(orelse, depth, restyle))
    elif type(orelse) is cst.Else and type(orelse.body) is cst.IndentedBlock:
        block = orelse.body.with_changes(body=_block(orelse.body.body, depth + 1, restyle))
        stmt = stmt.with_changes(orelse=orelse.with_changes(body=block))
    return stmt


def _header(stmt: cst.BaseStatement, room: int, restyle: _Restyle) -> cst.BaseStatement:
    """The decorators of a definition, or the test of an `if`/`while`, quoted as the
    file quotes and wrapped when long."""
    if type(stmt) is cst.FunctionDef or type(stmt) is cst.ClassDef:
        decorators = [
            _decorator(_quoted(d, restyle), room, restyle.indent) for d in stmt.decorators
        ]
        return stmt.with_changes(decorators=decorators)
    if type(stmt) is cst.If or type(stmt) is cst.While:
        keyword = "while" if type(stmt) is cst.While else "if"
        return _test(
            stmt.with_changes(test=_quoted(stmt.test, restyle)), keyword, room, restyle.indent
        )
    return stmt


def _wrapped_line(
    stmt: cst.SimpleStatementLine, room: int, indent: str
) -> cst.BaseStatement | None:
    """The line wrapped to `room` columns, or None (it fits, or cannot be wrapped)."""
    line = wrap.text(stmt.with_changes(leading_lines=()))
    if len(line) - 1 <= room or "\n" in line[:-1] or len(stmt.body) != 1:
        return None
    doc = _small_statement(stmt.body[0])
    if doc is None:
        return None
    comment = stmt.trailing_whitespace.comment
    new = wrap.render([doc, f"  {comment.value}" if comment else ""], room, indent)
    if new == line[:-1] or not wrap.same_code(line, new):
        return None
    return cst.parse_statement(new + "\n").with_changes(leading_lines=stmt.leading_lines)


def _small_statement(small: cst.BaseSmallStatement) -> wrap.Doc | None:
    """An expression statement, `return` or assignment as a document (None: another)."""
    if type(small) is cst.Expr:
        return wrap.expression(small.value, wrap.STATEMENT)
    if type(small) is cst.Return and small.value is not None:
        return ["return ", wrap.expression(small.value, wrap.VALUE)]
    if type(small) is cst.Assign:
        targets = "".join(wrap.text(t.target) + " = " for t in small.targets)
        return [targets, wrap.expression(small.value, wrap.VALUE)]
    return None


def _decorator(decorator: cst.Decorator, room: int, indent: str) -> cst.Decorator:
    line = "@" + wrap.text(decorator.decorator)
    if len(line) <= room or "\n" in line:
        return decorator
    new = wrap.render(["@", wrap.expression(decorator.decorator)], room, indent)
    source = f"{new}\ndef _():\n    pass\n"
    if not wrap.same_code(f"{line}\ndef _():\n    pass\n", source):
        return decorator
    parsed = cst.ensure_type(cst.parse_statement(source), cst.FunctionDef)
    return decorator.with_changes(decorator=parsed.decorators[0].decorator)


def _test(stmt: cst.If | cst.While, keyword: str, room: int, indent: str) -> cst.If | cst.While:
    line = f"{keyword} {wrap.text(stmt.test)}:"
    comment = type(stmt.body) is cst.IndentedBlock and stmt.body.header.comment
    if len(line) <= room or "\n" in line or comment:
        return stmt
    new = wrap.render([f"{keyword} ", wrap.expression(stmt.test, wrap.VALUE), ":"], room, indent)
    if not wrap.same_code(f"{line}\n    pass\n", f"{new}\n    pass\n"):
        return stmt
    parsed = cst.ensure_type(cst.parse_statement(f"{new}\n    pass\n"), type(stmt))
    return stmt.with_changes(test=parsed.test)


Node = TypeVar("Node", bound=cst.CSTNode)


def _quoted(node: Node, restyle: _Restyle) -> Node:
    """Double-quoted strings of new code in single quotes where the file prefers them
    (and no quote is inside)."""
    if '"' not in wrap.text(node) or restyle.quote != "'":
        return node
    return cst.ensure_type(node.visit(_SingleQuotes()), type(node))


class _SingleQuotes(cst.CSTTransformer):
    def leave_SimpleString(
        self, original_node: cst.SimpleString, updated_node: cst.SimpleString
    ) -> cst.SimpleString:
        value = updated_node.value
        prefix = value[: len(value) - len(value.lstrip("rRbBuU"))]
        body = value[len(prefix) :]
        if body[:3] == '"""' or body[:1] != '"' or any(c in body[1:-1] for c in "'\""):
            return updated_node
        return updated_node.with_changes(value=f"{prefix}'{body[1:-1]}'")


def _prevailing_quote(module: cst.Module) -> str:
    """The quote most of the file's one-line strings open with (double on a tie); an
    f-string counts once, as the tokenizer sees it. (The tree, not `tokenize`: its
    pattern takes longer to compile than the walk takes.)"""
    counts = {'"': 0, "'": 0}
    todo: list[cst.CSTNode] = [module]
    while todo:
        node = todo.pop()
        if type(node) is cst.SimpleString:
            opening = node.value.lstrip("rRbBuU")
        elif type(node) is cst.FormattedString:
            opening = node.start.lstrip("rRbBuUfF")
        else:
            todo.extend(child_list(node))
            continue
        if opening[:3] not in ('"""', "'''"):
            counts[opening[0]] += 1
    return "'" if counts["'"] > counts['"'] else '"'


def _import_spacing(
    body: list[cst.BaseStatement], pairs: set[tuple[int, int]]
) -> list[cst.BaseStatement]:
    """Below an import line that is newly there, the blank lines isort and Ruff's
    formatter want: none before an import of the same section, one before another
    section or code, two before a function or class."""
    out = list(body)
    for index in range(1, len(out)):
        above, stmt = out[index - 1], out[index]
        if (id(body[index - 1]), id(body[index])) in pairs or not top_imports(above):
            continue
        if top_imports(stmt):
            wanted = 0 if line_section(above) == line_section(stmt) else 1
        else:
            wanted = 2 if type(stmt) in (cst.FunctionDef, cst.ClassDef) else 1
        lines = list(stmt.leading_lines)  # type: ignore[attr-defined]  # every statement has them
        blank = next((n for n, line in enumerate(lines) if line.comment is not None), len(lines))
        if blank != wanted:
            out[index] = stmt.with_changes(leading_lines=[cst.EmptyLine()] * wanted + lines[blank:])
    return out
