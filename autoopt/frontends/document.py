"""An open document's parse, redone after an edit only where the edit changed the text.

LibCST gives each top-level statement its own stretch of the text: the comment and
blank lines above it and, for a compound statement, its block's trailing comments.
After an edit, the statements the changed text touches are parsed on their own, with
one untouched neighbour on each side (an edit may move a comment line from one
statement to the next), and spliced between the untouched statements, which stay the
same node objects (so what was computed for them stays valid). Where the pieces could
come out other than a parse of the whole text (the module's header or first line, its
indentation or line endings, a piece with no statement or a stray footer), the whole
text is parsed: the result is always what `api.parse` gives for the new text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

import libcst as cst

from autoopt import api
from autoopt.analysis.core.walk import walk

_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Parsed:
    """A text, its module and where each top-level statement starts in it.

    `starts` and `lines` have one entry per statement and one for the end of the last
    (where the footer begins): the offset in `text` and the line breaks before it.
    They are None when the statement texts do not add up to the text (never splice).
    """

    text: str
    module: cst.Module
    starts: tuple[int, ...] | None
    lines: tuple[int, ...] | None

    @property
    def line_offsets(self) -> list[int] | None:
        """Lines before each top-level statement (`ModuleContext.line_offsets`)."""
        return list(self.lines[:-1]) if self.lines is not None else None


def parse_whole(text: str, path: str) -> Parsed:
    """Parse all of `text` (raises `AutooptError` where `api.parse` does)."""
    module = api.parse(text, path)
    offset = _code_length(module, module.header)
    starts = [offset]
    for stmt in module.body:
        offset += len(module.code_for_node(stmt))
        starts.append(offset)
    total = offset + _code_length(module, module.footer)
    if total != len(text) + (not module.has_trailing_newline):
        return Parsed(text, module, None, None)
    starts[-1] = min(starts[-1], len(text))
    return Parsed(text, module, tuple(starts), tuple(_breaks_before(text, starts)))


def reparse(old: Parsed, text: str, path: str) -> Parsed:
    """The parse of `text`, an edit of `old.text`: spliced where safe, else whole."""
    if text == old.text:
        return old
    spliced = _splice(old, text)
    return spliced if spliced is not None else parse_whole(text, path)


def _splice(old: Parsed, text: str) -> Parsed | None:
    """`old` with the statements around the changed text parsed again, or None."""
    module, starts = old.module, old.starts
    if starts is None or old.lines is None or not module.body:
        return None
    head, old_end = _changed(old.text, text)
    first_break = _BREAK.search(text)
    if head < starts[0] or first_break is None or head <= first_break.end():
        return None  # the header or the first line (default newline) changed
    count = len(module.body)
    first = max(_holding(starts, head) - 1, 0)
    last = min(_holding(starts, old_end) + 1, count - 1)
    start = starts[first]
    to_eof = last == count - 1
    stop_old = len(old.text) if to_eof else starts[last + 1]
    stop_new = stop_old + len(text) - len(old.text)
    piece = _parse_piece(text[start:stop_new])
    if piece is None or not piece.body or (piece.footer and not to_eof):
        return None
    body = _leading_lines_moved(piece) if first else list(piece.body)
    header = tuple(module.header) + (tuple(piece.header) if not first else ())
    spliced = module.with_changes(
        body=(*module.body[:first], *body, *module.body[last + 1 :]),
        header=header,
        footer=piece.footer if to_eof else module.footer,
        has_trailing_newline=piece.has_trailing_newline if to_eof else module.has_trailing_newline,
    )
    if not _same_layout(module, piece, spliced, first):
        return None
    return _positions(old, text, spliced, piece, (first, last), (start, stop_new))


def _parse_piece(code: str) -> cst.Module | None:
    try:
        return cst.parse_module(code)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None


def _leading_lines_moved(
    piece: cst.Module,
) -> list[cst.SimpleStatementLine | cst.BaseCompoundStatement]:
    """The piece's statements, its header lines back above its first statement."""
    body = list(piece.body)
    if piece.header:
        lines = (*piece.header, *body[0].leading_lines)
        body[0] = body[0].with_changes(leading_lines=lines)
    return body


def _same_layout(old: cst.Module, piece: cst.Module, new: cst.Module, first: int) -> bool:
    """Whether the spliced nodes mean what a whole parse would: the same line ending
    and the same default indent (the first indented block's, which may have moved)."""
    if piece.default_newline != old.default_newline:
        return False
    if _first_block(piece.body) is not None and piece.default_indent != old.default_indent:
        return False
    block = _first_block(new.body)
    indent = "    " if block is None else block.indent or old.default_indent
    return indent == old.default_indent


def _first_block(body) -> cst.IndentedBlock | None:
    for stmt in body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            found = next((n for n in walk(stmt) if isinstance(n, cst.IndentedBlock)), None)
            if found is not None:
                return found
    return None


def _positions(
    old: Parsed,
    text: str,
    module: cst.Module,
    piece: cst.Module,
    replaced: tuple[int, int],
    span: tuple[int, int],
) -> Parsed | None:
    """Statement starts and line counts: kept before the piece, measured in it, shifted
    after it. None when the piece's statements do not add up to its text."""
    assert old.starts is not None and old.lines is not None
    first, last = replaced
    start, stop = span
    new_count = len(module.body) - (len(old.module.body) - (last + 1 - first))
    offset = start + (_code_length(piece, piece.header) if not first else 0)
    starts = list(old.starts[:first])
    for stmt in module.body[first : first + new_count]:
        starts.append(offset)
        offset += len(piece.code_for_node(stmt))
    delta = len(text) - len(old.text)
    if last + 1 < len(old.module.body):
        if offset != stop:
            return None
        starts += [s + delta for s in old.starts[last + 1 :]]
    else:
        total = offset + _code_length(piece, piece.footer)
        if total != len(text) + (not module.has_trailing_newline):
            return None
        starts.append(min(offset, len(text)))
    lines = list(old.lines[:first]) + _breaks_before(text, starts[first:], start, old.lines[first])
    return Parsed(text, module, tuple(starts), tuple(lines))


def _breaks_before(text: str, starts: list[int], begin: int = 0, before: int = 0) -> list[int]:
    """Line breaks in `text` before each offset, counting from `before` at `begin`."""
    counts, position, seen = [], begin, before
    for offset in starts:
        seen += len(_BREAK.findall(text, position, offset))
        counts.append(seen)
        position = offset
    return counts


def _code_length(module: cst.Module, lines) -> int:
    return sum(len(module.code_for_node(line)) for line in lines)


def _holding(starts: tuple[int, ...], offset: int) -> int:
    """The statement whose text holds `offset` (the last one for the footer)."""
    return min(max(bisect.bisect_right(starts, offset) - 1, 0), len(starts) - 2)


def _changed(old: str, new: str) -> tuple[int, int]:
    """The changed stretch of `old`: where it starts and where it ends."""
    head = _common(old, new, lambda n: old[:n] == new[:n])
    limit = min(len(old), len(new)) - head
    tail = _common(old, new, lambda n: old[len(old) - n :] == new[len(new) - n :], limit)
    return head, len(old) - tail


def _common(old: str, new: str, same, limit: int | None = None) -> int:
    """The largest n <= limit with same(n) (binary search; slices compare in C)."""
    low, high = 0, min(len(old), len(new)) if limit is None else limit
    while low < high:
        middle = (low + high + 1) // 2
        if same(middle):
            low = middle
        else:
            high = middle - 1
    return low
