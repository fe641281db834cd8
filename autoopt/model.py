"""The data every pipeline stage hands to the next: findings, fixes, results, errors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # LibCST loads with the pipeline, not with the data it hands on
    import libcst as cst


class Applicability(str, Enum):
    """How far a fix can be trusted without running the program (ruff's split)."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    NONE = "none"


@dataclass(frozen=True, order=True)
class Span:
    """A source range, 1-based lines and columns, end exclusive (as editors count)."""

    line: int
    column: int
    end_line: int
    end_column: int


#: Called with the rewritten node of the target's own class (a `For` for a `For`): Any.
NodeTransform = Callable[[Any], "cst.CSTNode | cst.RemovalSentinel"]


@dataclass(frozen=True)
class Replace:
    """Transform `target` (after its children were rewritten) with `transform`."""

    target: cst.CSTNode
    transform: NodeTransform


@dataclass(frozen=True)
class InsertBefore:
    """Insert statements just before the statement `anchor` (in the same block)."""

    anchor: cst.CSTNode
    statements: tuple[cst.BaseStatement, ...]


@dataclass(frozen=True)
class InsertAfter:
    """Insert statements just after the statement `anchor` (in the same block)."""

    anchor: cst.CSTNode
    statements: tuple[cst.BaseStatement, ...]


@dataclass(frozen=True)
class RequireImport:
    """Make sure `import <module>` (or `import <module> as <alias>`) exists; with `name`,
    `from <module> import <name>` (or `... as <alias>`)."""

    module: str
    alias: str | None = None
    name: str | None = None


Edit = Replace | InsertBefore | InsertAfter | RequireImport


@dataclass(frozen=True)
class TextEdit:
    """A fix as text: replace the range `span` of the original source with `content`
    (ruff's edit; computed from the tree edits by rewrite/text_edits.py)."""

    content: str
    span: Span
    cell: int | None = None  # in a notebook: the cell `span` counts lines in (report/cells.py)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"content": self.content}
        if self.cell is not None:
            data["cell"] = self.cell
        data["location"] = {"row": self.span.line, "column": self.span.column}
        data["end_location"] = {"row": self.span.end_line, "column": self.span.end_column}
        return data


@dataclass
class Finding:
    """One place where the program pays for avoidable work, and how to fix it."""

    rule: str
    name: str
    message: str
    span: Span
    fix: Applicability
    edits: Sequence[Edit] = ()  # a tuple, or edits written when first read (`DeferredEdits`)
    # The function the verifier replays and measures: the one the fix changes, or (AO601)
    # a module-level jitted function whose computation reaches it.
    target: str | None = None
    title: str = ""  # a short imperative fix title, e.g. "Add @jax.jit"
    path: str = "<string>"
    # The text edits of the fix as applied with the other fixes of its run (empty where
    # the fix was not applied): plain data, kept by `detached` and the result cache.
    text_edits: tuple[TextEdit, ...] = ()
    # In a notebook, as reported: the cell (from 1) whose lines `span` counts (report/cells.py).
    cell: int | None = None

    @property
    def fixable(self) -> bool:
        return self.fix is not Applicability.NONE and bool(self.edits)

    def detached(self) -> Finding:
        """A copy without the tree edits, cheap to pickle across processes."""
        return replace(self, edits=())

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"path": self.path}
        if self.cell is not None:
            data["cell"] = self.cell
        data |= {
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "rule": self.rule,
            "name": self.name,
            "message": self.message,
            "fix": self.fix.value,
        }
        if self.text_edits:
            data["fix_edits"] = {
                "applicability": self.fix.value,
                "message": self.title or self.message,
                "edits": [edit.to_json() for edit in self.text_edits],
            }
        return data


@dataclass
class Result:
    """What `optimize_source` found in one source text and the code after the fixes."""

    path: str
    source: str
    findings: list[Finding]
    new_source: str
    applied: list[Finding] = field(default_factory=list)
    # Other files of the project the analysis read (path -> digest of their bytes): a
    # cached result holds only while they are unchanged.
    dependencies: dict[str, str] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return self.new_source != self.source

    def detached(self) -> Result:
        """A copy whose findings carry no tree edits (see `Finding.detached`)."""
        return replace(
            self,
            findings=[f.detached() for f in self.findings],
            applied=[f.detached() for f in self.applied],
        )


class AutooptError(Exception):
    """An input autoopt cannot work on; the message names the file and the cause."""

    def __init__(
        self, path: str, message: str, line: int | None = None, cell: int | None = None
    ) -> None:
        self.path = path
        self.message = message
        self.line = line
        self.cell = cell  # in a notebook: the cell `line` counts in (report/cells.py)
        where = path + (f":cell {cell}" if cell else "") + (f":{line}" if line else "")
        super().__init__(f"{where}: {message}")

    def __reduce__(self) -> tuple[type[AutooptError], tuple[str, str, int | None, int | None]]:
        return (type(self), (self.path, self.message, self.line, self.cell))

    def to_json(self) -> dict[str, object]:
        cell = {} if self.cell is None else {"cell": self.cell}
        return {"path": self.path, **cell, "message": self.message}
