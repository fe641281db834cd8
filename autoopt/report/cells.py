"""Positions in a notebook as Ruff gives them: the cell, and the line within that cell.

autoopt analyses a notebook's code cells joined into one text, a marker line before each
(`workspace/notebook.py`); a `CellMap` turns a position in that text back into the cell
(counted from 1 over every cell of the notebook, markdown ones included) and its line.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, replace

from autoopt.model import AutooptError, Finding, Span, TextEdit


@dataclass(frozen=True)
class CellMap:
    """Where each analysed cell starts in the joined text."""

    markers: tuple[tuple[int, int], ...]  # (line of the cell's marker, cell number), in order

    def locate(self, span: Span) -> tuple[int, Span]:
        """The cell holding `span`'s start, and `span` counted inside it.

        A position on a marker line is the end of the cell before it (where an insertion
        lands); one before the first marker is the start of the first cell.
        """
        lines = [line for line, _ in self.markers]
        at = bisect_left(lines, span.line) - 1
        if at < 0:
            return self.markers[0][1], replace(span, line=1, end_line=1 + span.end_line - span.line)
        marker, cell = self.markers[at]
        return cell, Span(span.line - marker, span.column, span.end_line - marker, span.end_column)

    def finding(self, finding: Finding) -> Finding:
        """`finding` with its span and its fix's edits counted in their cells."""
        cell, span = self.locate(finding.span)
        edits = tuple(self._edit(edit) for edit in finding.text_edits)
        return replace(finding, span=span, cell=cell, text_edits=edits)

    def error(self, error: AutooptError) -> AutooptError:
        """`error` with its line, if it names one, counted in its cell."""
        if error.line is None or not self.markers:
            return error
        cell, span = self.locate(Span(error.line, 1, error.line, 1))
        return AutooptError(error.path, error.message, span.line, cell)

    def _edit(self, edit: TextEdit) -> TextEdit:
        cell, span = self.locate(edit.span)
        return replace(edit, span=span, cell=cell)


def cell_key(path: str, cell: int) -> str:
    """How a notebook cell's source is keyed among file sources: `nb.ipynb:cell 3`."""
    return f"{path}:cell {cell}"
