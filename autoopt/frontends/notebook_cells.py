"""An open notebook document's cells as one Python text, joined as the CLI joins a .ipynb.

An LSP client sends a notebook as cell text documents, each with its own URI. The code
cells are joined by `workspace/notebook.py` (inert magics hidden, a cell that does not
parse left out and reported), and what the analysis finds in the joined text is mapped
back to the cell that holds it, positions counted in that cell, as `report/cells.py`
does for the CLI.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from autoopt.model import AutooptError, Finding
from autoopt.report.cells import CellMap
from autoopt.workspace.notebook import Notebook, parse_notebook

#: One cell: its document URI and its text, None for a markup or non-Python cell.
Entry = tuple[str, str | None]
_LINE = re.compile(r"\(line (\d+)\)$")


@dataclass(frozen=True)
class NotebookCells:
    """A notebook's cells, in order, and their code joined for the analysis."""

    entries: tuple[Entry, ...]
    notebook: Notebook

    @classmethod
    def join(cls, entries: tuple[Entry, ...], path: str) -> NotebookCells:
        cells = [
            {"cell_type": "markdown" if code is None else "code", "source": code or ""}
            for _, code in entries
        ]
        raw = json.dumps({"cells": cells, "metadata": {}}).encode()
        return cls(entries, parse_notebook(Path(path), raw, path))

    @property
    def text(self) -> str:
        return self.notebook.text

    @cached_property
    def _map(self) -> CellMap:
        return self.notebook.cell_map()

    def code_cells(self) -> list[str]:
        """The URIs of the Python cells (those that get diagnostics)."""
        return [uri for uri, code in self.entries if code is not None]

    def source(self, uri: str) -> str:
        return next((code or "" for cell, code in self.entries if cell == uri), "")

    def locate(self, finding: Finding) -> tuple[str, Finding]:
        """The cell holding `finding`, and the finding counted in that cell."""
        mapped = self._map.finding(finding)
        assert mapped.cell is not None
        return self.entries[mapped.cell - 1][0], mapped

    def error(self, error: AutooptError) -> tuple[str, AutooptError]:
        """The cell an analysis error names (the first code cell where it names none),
        and the error counted in it. Only a text with a cell in it fails to parse."""
        mapped = self._map.error(error)
        cell = mapped.cell or self.notebook.cells[0] + 1
        return self.entries[cell - 1][0], mapped

    def skipped(self) -> list[tuple[str, AutooptError]]:
        """Each cell left out because it does not parse, with Python's error in it."""
        out = []
        for index, why in self.notebook.skipped:
            match = _LINE.search(why)
            line = int(match.group(1)) if match else 1
            message = f"cell skipped: {why}"
            out.append((self.entries[index][0], AutooptError(self.notebook.name, message, line)))
        return out

    def fixed(self, text: str) -> dict[str, str]:
        """The new text of each cell that `text`, the joined text rewritten, changes.
        Raises `AutooptError` for a rewrite that moves code across cells."""
        cells = json.loads(self.notebook.encode(text))["cells"]
        return {
            uri: cell["source"]
            for (uri, code), cell in zip(self.entries, cells, strict=True)
            if code is not None and cell["source"] != code
        }
