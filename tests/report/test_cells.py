"""Positions in a notebook's joined code cells, counted in their cells."""

from __future__ import annotations

from autoopt.model import Applicability, Finding, Span, TextEdit
from autoopt.report.cells import CellMap
from autoopt.report.findings import text_line

# cells 2 and 5 of a notebook: markers on lines 1 and 6 of the joined text
CELLS = CellMap(((1, 2), (6, 5)))


def test_a_line_counts_from_its_cells_marker():
    assert CELLS.locate(Span(3, 5, 4, 9)) == (2, Span(2, 5, 3, 9))
    assert CELLS.locate(Span(7, 1, 7, 4)) == (5, Span(1, 1, 1, 4))


def test_a_marker_line_is_the_end_of_the_cell_before():
    assert CELLS.locate(Span(6, 1, 6, 1)) == (2, Span(5, 1, 5, 1))


def test_before_the_first_marker_is_the_start_of_the_first_cell():
    assert CELLS.locate(Span(1, 1, 1, 1)) == (2, Span(1, 1, 1, 1))


def test_a_finding_and_its_edits_move_into_their_cells():
    edits = (TextEdit("import jax\n", Span(1, 1, 1, 1)), TextEdit("@jax.jit\n", Span(8, 1, 8, 1)))
    finding = Finding("AO101", "missing-jit", "m", Span(8, 5, 8, 9), Applicability.SAFE)
    located = CELLS.finding(Finding(**{**vars(finding), "path": "nb.ipynb", "text_edits": edits}))
    assert (located.cell, located.span) == (5, Span(2, 5, 2, 9))
    assert [(e.cell, e.span.line) for e in located.text_edits] == [(2, 1), (5, 2)]
    assert text_line(located) == "nb.ipynb:cell 5:2:5: AO101 m [fix: safe]"
    assert located.to_json()["cell"] == 5
    assert located.text_edits[1].to_json() == {
        "content": "@jax.jit\n",
        "cell": 5,
        "location": {"row": 2, "column": 1},
        "end_location": {"row": 2, "column": 1},
    }
