"""Spans of a rewritten text mapped back onto its source (rewrite/line_map.py)."""

from __future__ import annotations

from autoopt.model import Span
from autoopt.rewrite.line_map import LineMap

OLD = "a = 1\nfor i in r:\n    x = f(i)\nreturn x\n"
NEW = "import g\na = 1\nfor i in r:\n    x = g(i)\n    y = x\nreturn x\n"


def test_a_kept_line_maps_to_itself_with_its_columns() -> None:
    lines = LineMap(OLD, NEW)
    assert lines.line(2) == (1, True)
    assert lines.span(Span(3, 5, 3, 12)) == Span(2, 5, 2, 12)


def test_a_changed_or_written_line_maps_to_the_start_of_the_change() -> None:
    lines = LineMap(OLD, NEW)
    assert lines.line(1) == (1, False)
    assert lines.line(4) == (3, False)
    assert lines.line(5) == (3, False)
    assert lines.span(Span(3, 1, 5, 10)) == Span(2, 1, 3, 1)
    assert lines.span(Span(4, 5, 4, 9)) == Span(3, 1, 3, 1)


def test_lines_ranges_map_end_exclusive() -> None:
    lines = LineMap(OLD, NEW)
    assert lines.lines(3, 5) == (2, 3)
    assert lines.lines(0, 0) == (0, 0)
