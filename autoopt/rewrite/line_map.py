"""Spans of a rewritten text mapped back onto the text it was rewritten from.

A later pass of `api.optimize_source` analyses the code an earlier pass wrote; its
findings are reported where the user can find them, in the original source. A line the
rewrite kept maps to itself (columns kept); a line the rewrite wrote or changed maps to
the first original line of the change (columns from the start of that line).
"""

from __future__ import annotations

import difflib

from autoopt.model import Span
from autoopt.rewrite.text_edits import lines_of


class LineMap:
    """Maps 1-based lines of `new` to lines of `old`."""

    def __init__(self, old: str, new: str) -> None:
        old_lines, new_lines = lines_of(old), lines_of(new)
        matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
        self._opcodes = matcher.get_opcodes()
        self._last = max(len(old_lines), 1)

    def line(self, line: int) -> tuple[int, bool]:
        """The old line of new line `line`, and whether the line is kept as it was."""
        index = line - 1
        for tag, i1, _i2, j1, j2 in self._opcodes:
            if j1 <= index < j2:
                if tag == "equal":
                    return i1 + index - j1 + 1, True
                return min(i1 + 1, self._last), False
        return self._last, False

    def lines(self, first: int, end: int) -> tuple[int, int]:
        """The old lines (0-based, end exclusive) of new lines [first, end)."""
        old_first = self.line(first + 1)[0] - 1
        return old_first, max(old_first, self.line(end)[0]) if end > first else old_first

    def span(self, span: Span) -> Span:
        line, kept = self.line(span.line)
        end_line, end_kept = self.line(span.end_line)
        end_line = max(end_line, line)
        if kept and end_kept:
            return Span(line, span.column, end_line, span.end_column)
        column = span.column if kept else 1
        return Span(line, column, end_line, column if end_line == line else 1)
