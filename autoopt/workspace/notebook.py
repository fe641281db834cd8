"""Jupyter notebooks as one Python text: code cells joined, outputs never touched.

The code cells are joined with a marker comment before each one, analysed as
one module, and split back at the markers. IPython magics that change nothing the
analysis reads (`%matplotlib inline`, `!pip install ...`, a `%%time` cell) are
commented out for the analysis and restored when the cell is written back; a cell
with any other magic (`%run`, `%time x = f()`, `%%timeit`, `%env`) is left out and
kept as it is, as is a cell that does not parse (Python's own parser), which is
reported in `skipped`. A rewrite that moves code across cells
is refused rather than guessed at. Positions in the joined text map back to cells
with `cell_map` (report/cells.py).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

from autoopt.model import AutooptError
from autoopt.report.cells import CellMap, cell_key

_MARKER = "# autoopt-cell {}"
_MARKER_RE = re.compile(r"^# autoopt-cell (\d+)\n", re.M)
_HIDDEN = "# autoopt-magic "
_HIDDEN_RE = re.compile(r"^([ \t]*)# autoopt-magic (.*)$", re.M)
#: Line magics that bind no Python name and run no code of the notebook's: plotting,
#: configuration, extensions, the shell and package managers, the working directory.
_INERT_MAGICS = frozenset(
    {"matplotlib", "config", "load_ext", "reload_ext", "autoreload", "pip", "conda",
     "autosave", "xmode", "pwd", "cd", "ls", "mkdir", "who", "whos", "lsmagic", "pinfo"}
)  # fmt: skip
#: Cell magics that run the rest of the cell once, as Python, in the notebook's namespace.
_ONCE_CELL_MAGICS = frozenset({"time", "capture"})


@dataclass(frozen=True)
class Notebook:
    """A notebook's code cells as one text, and what is needed to write it back."""

    path: Path
    text: str
    raw: bytes
    cells: tuple[int, ...]  # indices of the code cells in `text`, in order
    name: str
    starts: tuple[int, ...] = ()  # the line of each cell's marker in `text`
    skipped: tuple[tuple[int, str], ...] = ()  # (index, syntax error) of cells left out

    def cell_map(self) -> CellMap:
        """Positions in `text` as (cell number from 1, line in the cell)."""
        return CellMap(
            tuple((line, index + 1) for line, index in zip(self.starts, self.cells, strict=True))
        )

    def cell_sources(self, display: str) -> dict[str, str]:
        """The source of each analysed cell, keyed `display:cell N`."""
        return {cell_key(display, i + 1): code for i, code in self._split(self.text).items()}

    def warnings(self, display: str) -> list[str]:
        """`nb.ipynb:cell 3: cell skipped: syntax error: ...` per cell left out."""
        return [f"{display}:cell {i + 1}: cell skipped: {why}" for i, why in self.skipped]

    def encode(self, text: str) -> bytes:
        """The notebook's JSON with the code cells replaced by `text`'s parts."""
        if text == self.text:
            return self.raw
        document = json.loads(self.raw)
        for index, code in self._split(text).items():
            cell = document["cells"][index]
            if _cell_text(cell) != code:
                cell["source"] = _as_source(code, cell["source"])
        return _dump(document, self.raw)

    def _split(self, text: str) -> dict[int, str]:
        parts = _MARKER_RE.split(text)
        head, numbers, bodies = parts[0], parts[1::2], parts[2::2]
        if tuple(int(n) for n in numbers) != self.cells:
            raise AutooptError(self.name, "a rewrite moves code across notebook cells; not applied")
        document = json.loads(self.raw)
        out = {}
        for position, (number, body) in enumerate(zip(numbers, bodies, strict=True)):
            index = int(number)
            code = _HIDDEN_RE.sub(r"\1\2", (head if position == 0 else "") + body)
            out[index] = code if _cell_text(document["cells"][index]).endswith("\n") else code[:-1]
        return out


def parse_notebook(path: Path, raw: bytes, name: str) -> Notebook:
    """A Notebook from the bytes of an .ipynb file; clear errors for anything else."""
    try:
        document = json.loads(raw)
        cells = document["cells"]
    except (ValueError, KeyError, TypeError):
        raise AutooptError(name, "not a Jupyter notebook (invalid JSON or no cells)") from None
    language = _language(document)
    if language not in ("", "python"):
        raise AutooptError(name, f"a {language} notebook, not Python")
    chunks, indices, starts, skipped = [], [], [], []
    line = 1
    for index, cell in enumerate(cells):
        code = _hide_magics(_cell_text(cell)) if cell.get("cell_type") == "code" else ""
        if not code or not code.strip():
            continue
        error = _syntax_error(code)
        if error is not None:
            skipped.append((index, error))
            continue
        chunks.append(f"{_MARKER.format(index)}\n{_ended(code)}")
        indices.append(index)
        starts.append(line)
        line += chunks[-1].count("\n")
    text = "".join(chunks)
    return Notebook(path, text, raw, tuple(indices), name, tuple(starts), tuple(skipped))


def _hide_magics(code: str) -> str | None:
    """The cell with each inert magic line commented out, or None when a magic may run
    code or bind names autoopt cannot see (then the cell is left out)."""
    lines = code.splitlines(keepends=True)
    for number, line in enumerate(lines):
        text = line.lstrip(" \t")
        if not text.startswith(("%", "!")):
            continue
        if line.rstrip("\r\n").endswith("\\") or not _inert(text, number == 0):
            return None
        lines[number] = f"{line[: len(line) - len(text)]}{_HIDDEN}{text}"
    return "".join(lines)


def _inert(magic: str, first: bool) -> bool:
    """A shell line, an inert line magic, or a run-once cell magic on the cell's first line."""
    if magic.startswith("!"):
        return True
    cell = magic.startswith("%%")
    name = magic.lstrip("%").split(maxsplit=1)[0] if magic.strip("%").strip() else ""
    return first and name in _ONCE_CELL_MAGICS if cell else name in _INERT_MAGICS


def _syntax_error(code: str) -> str | None:
    """Why a cell does not parse, as Python says it, or None."""
    try:
        ast.parse(code)
    except SyntaxError as exc:
        return f"syntax error: {exc.msg} (line {exc.lineno or 1})"
    except (ValueError, RecursionError) as exc:  # NUL bytes, absurd nesting
        return f"cannot parse: {exc}"
    return None


def _ended(code: str) -> str:
    return code if code.endswith("\n") else code + "\n"


def _language(document: dict) -> str:
    meta = document.get("metadata", {})
    name = meta.get("language_info", {}).get("name") or meta.get("kernelspec", {}).get("language")
    return str(name or "").lower()


def _cell_text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _as_source(code: str, like: list[str] | str) -> list[str] | str:
    return code.splitlines(keepends=True) if isinstance(like, list) else code


def _dump(document: dict, raw: bytes) -> bytes:
    """JSON laid out as the original: its indent, non-ASCII kept, final newline kept."""
    match = re.search(rb"\n( +)\S", raw)
    indent = len(match.group(1)) if match else 1
    text = json.dumps(document, indent=indent, ensure_ascii=False)
    return (text + ("\n" if raw.endswith(b"\n") else "")).encode("utf-8")
