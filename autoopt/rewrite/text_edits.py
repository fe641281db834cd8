"""The applied fixes as text edits (ruff's JSON `fix.edits`).

The tree edits of all applied fixes are rendered together (api.render); the line
hunks between the source and that result are the text edits. Each hunk is given to
the first applied finding whose own fix, rendered alone, changes those lines (an
import two fixes need goes to the first; `owns`), else to the finding nearest to it. Applied
together, sorted and from the end, the edits reproduce exactly what `rewrite --write`
writes.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence

from autoopt.model import Finding, Span, TextEdit

#: Opcodes of a line diff: (first, end) of the original lines, (first, end) of the new.
Hunk = tuple[int, int, int, int]


def lines_of(text: str) -> list[str]:
    """The lines of `text`, each with its `\\n` (a last line may lack one)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def hunks(old: str, new: str) -> list[Hunk]:
    matcher = difflib.SequenceMatcher(None, lines_of(old), lines_of(new), autojunk=False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def changed_lines(old: str, new: str) -> list[tuple[int, int]]:
    """The ranges of lines of `old` (0-based, end exclusive) that `new` changes."""
    return [(i1, i2) for i1, i2, _, _ in hunks(old, new)]


def _position(lines: Sequence[str], index: int) -> tuple[int, int]:
    """1-based (row, column) of the start of line `index` (the end of the text past it)."""
    if index < len(lines) or not lines or lines[-1].endswith("\n"):
        return index + 1, 1
    return len(lines), len(lines[-1]) + 1


def _edit(old_lines: Sequence[str], new_lines: Sequence[str], hunk: Hunk) -> TextEdit:
    i1, i2, j1, j2 = hunk
    row, column = _position(old_lines, i1)
    end_row, end_column = _position(old_lines, i2)
    return TextEdit("".join(new_lines[j1:j2]), Span(row, column, end_row, end_column))


def with_text_edits(
    source: str,
    new_source: str,
    applied: Sequence[Finding],
    owns: Callable[[Finding], list[tuple[int, int]]],
) -> None:
    """Set the `text_edits` of the `applied` findings (`owns(f)`: the ranges of source
    lines, 0-based and end exclusive, that f's fix alone changes)."""
    if not applied or source == new_source:
        return
    old_lines, new_lines = lines_of(source), lines_of(new_source)
    all_hunks = hunks(source, new_source)
    owned: list[list[tuple[int, int]]] = (
        [owns(f) for f in applied]
        if len(applied) > 1 and len(all_hunks) > 1
        else [[] for _ in applied]
    )
    widened = [[_widened(old_lines, a, b) for a, b in ranges] for ranges in owned]
    edits: list[list[TextEdit]] = [[] for _ in applied]
    for hunk in all_hunks:
        i1, i2 = hunk[0], hunk[1]
        owner = _overlapping(owned, i1, i2)
        if owner is None:
            owner = _overlapping(widened, i1, i2)
        if owner is None:
            owner = min(range(len(applied)), key=lambda k: _distance(applied[k].span, i1, i2))
        edits[owner].append(_edit(old_lines, new_lines, hunk))
    for finding, found in zip(applied, edits, strict=True):
        finding.text_edits = tuple(found)


def _overlapping(owned: list[list[tuple[int, int]]], first: int, end: int) -> int | None:
    """The first finding one of whose ranges meets the lines [first, end)."""
    return next(
        (k for k, ranges in enumerate(owned) if any(a <= end and first <= b for a, b in ranges)),
        None,
    )


def _widened(lines: Sequence[str], first: int, end: int) -> tuple[int, int]:
    """[first, end) with the blank lines around it: a diff may place an inserted
    block on either side of them."""
    while first > 0 and not lines[first - 1].strip():
        first -= 1
    while end < len(lines) and not lines[end].strip():
        end += 1
    return first, end


def _distance(span: Span, first: int, end: int) -> int:
    """Lines between a finding and the original lines [first, end) (0-based)."""
    lo, hi = span.line - 1, span.end_line
    return 0 if first <= hi and lo <= end else min(abs(first - hi), abs(lo - end))
