"""The autoopt language server: diagnostics, code actions, hover and verification over LSP.

Run it with `autoopt lsp` or `python -m autoopt.frontends.lsp`; it speaks LSP over stdio.
Analysis runs on one worker thread and is cached per document text, so requests are
answered from the cache while a long file is analysed. An edit is analysed after a short
burst window (the rest of what the client sent with it arrives within it) when nothing is
pending for its document; edits that come while work is pending are debounced,
and work a newer text made stale stops at the next rule. Each document keeps its parse:
after an edit only the statements around the changed text are parsed again
(`frontends/document.py`); `AUTOOPT_LSP_INCREMENTAL=0` parses the whole text instead.
Code action edits are computed on `codeAction/resolve` when the client supports it,
otherwise eagerly.
"""

from __future__ import annotations

import asyncio
import difflib
import gc
import logging
import os
import re
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import libcst as cst
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from autoopt import __version__, api
from autoopt.analysis.core.context import ModuleContext, StatementMemo
from autoopt.config import Settings, load_settings, parse_codes
from autoopt.frontends.document import Parsed, parse_whole, reparse
from autoopt.frontends.extras import missing_jax
from autoopt.frontends.notebook_cells import Entry, NotebookCells
from autoopt.model import Applicability, AutooptError, Finding, Span
from autoopt.rules import BY_ID
from autoopt.workspace.testfiles import test_files

SOURCE = "autoopt"
FIX_ALL = "source.fixAll.autoopt"
VERIFY_COMMAND = "autoopt.verify"
DEBOUNCE_S = 0.1
BURST_S = 0.02  # edits a client sends together arrive within this: one analysis for all
GC_YOUNG = 20_000  # allocations between collections of the youngest generation
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
#: Jupyter notebooks: the client sends their Python cells as notebook documents. (The
#: filter names the notebook type: one of cells only does not parse in lsprotocol clients.)
NOTEBOOK_SYNC = lsp.NotebookDocumentSyncOptions(
    notebook_selector=[
        lsp.NotebookDocumentFilterWithNotebook(
            notebook="jupyter-notebook", cells=[lsp.NotebookCellLanguage("python")]
        )
    ],
    save=True,
)

logger = logging.getLogger(__name__)


# --- settings -------------------------------------------------------------------------


@dataclass(frozen=True)
class ClientSettings:
    """`select`, `ignore`, `unsafeFixes` from the client; None leaves pyproject's value."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    unsafe_fixes: bool | None = None

    @classmethod
    def parse(cls, raw: object) -> ClientSettings:
        """From initializationOptions or didChangeConfiguration, flat or under "autoopt"."""
        if isinstance(raw, dict) and isinstance(raw.get("autoopt"), dict):
            raw = raw["autoopt"]
        if not isinstance(raw, dict):
            return cls()
        unsafe = raw.get("unsafeFixes")
        return cls(
            _codes(raw.get("select")),
            _codes(raw.get("ignore")),
            unsafe if isinstance(unsafe, bool) else None,
        )

    def over(self, base: Settings) -> Settings:
        return base.merged(select=self.select, ignore=self.ignore, unsafe_fixes=self.unsafe_fixes)


def _codes(value: object) -> tuple[str, ...] | None:
    if isinstance(value, str):
        return parse_codes(value)
    if isinstance(value, list):
        return parse_codes(",".join(str(v) for v in value))
    return None


# --- analysis -------------------------------------------------------------------------


def key_of(finding: Finding) -> list[Any]:
    """How a code action names its finding: rule and span (JSON-friendly)."""
    span = finding.span
    return [finding.rule, span.line, span.column, span.end_line, span.end_column]


class Stale(Exception):
    """The document changed while its analysis ran: the result would be for an old text."""


class Tracker:
    """What one open document keeps between versions: its last parse and the facts of
    its top-level statements. Used by the analysis worker only."""

    def __init__(self, incremental: bool) -> None:
        self.incremental = incremental
        self._parsed: Parsed | None = None
        self._statements: StatementMemo | None = None

    def context(self, text: str, path: str) -> ModuleContext:
        """The context of `text`, reparsed where it changed (raises `AutooptError`)."""
        if not self.incremental:
            return ModuleContext(path, text, api.parse(text, path))
        old = self._parsed
        parsed = reparse(old, text, path) if old is not None else parse_whole(text, path)
        memo = self._statements.carried_to(parsed.module) if self._statements else None
        ctx = ModuleContext(path, text, parsed.module, parsed.line_offsets, memo)
        self._parsed, self._statements = parsed, ctx.statements
        return ctx


@dataclass
class Analysis:
    """The findings of one document text under one set of settings, and its fixed texts."""

    text: str
    path: str
    settings: Settings
    module: cst.Module | None = None
    findings: list[Finding] = field(default_factory=list)
    error: AutooptError | None = None
    cells: NotebookCells | None = None  # a notebook's: its cells, joined into `text`
    _fixed: dict[str, str] = field(default_factory=dict)

    @classmethod
    def run(
        cls,
        text: str,
        path: str,
        settings: Settings,
        tracker: Tracker,
        checkpoint: Callable[[], None],
    ) -> Analysis:
        """Analyse `text`; `checkpoint()` raises `Stale` once a newer text came."""
        try:
            checkpoint()
            ctx = tracker.context(text, path)
            findings = api.check_context(ctx, settings, checkpoint)
        except Stale:
            raise
        except AutooptError as exc:
            return cls(text, path, settings, error=exc)
        except Exception as exc:  # a rule bug must not take the server down
            logger.exception("analysis of %s failed", path)
            return cls(text, path, settings, error=AutooptError(path, f"internal error: {exc!r}"))
        return cls(text, path, settings, ctx.module, findings)

    @classmethod
    def of_notebook(
        cls,
        entries: tuple[Entry, ...],
        path: str,
        settings: Settings,
        tracker: Tracker,
        checkpoint: Callable[[], None],
    ) -> Analysis:
        """Analyse a notebook's Python cells joined (cells that do not parse left out)."""
        cells = NotebookCells.join(entries, path)
        analysis = cls.run(cells.text, path, settings, tracker, checkpoint)
        analysis.cells = cells
        return analysis

    def fix_all(self) -> list[Finding]:
        return [f for f in self.findings if api.applicable(f, self.settings)]

    def fixed_all(self) -> str:
        """The text `rewrite --write` gives: every applicable fix, the fixed text analysed
        and fixed again until stable (a fix can unblock another: `api.MAX_PASSES`)."""
        if FIX_ALL not in self._fixed:
            result = api.optimize_source(self.text, path=self.path, settings=self.settings)
            self._fixed[FIX_ALL] = result.new_source
        return self._fixed[FIX_ALL]

    def fixed(self, findings: Sequence[Finding]) -> str:
        """The text with exactly these findings' fixes applied (memoised)."""
        key = repr([key_of(f) for f in findings])
        if key not in self._fixed:
            assert self.module is not None
            self._fixed[key] = api.render(self.module, findings, self.path)
        return self._fixed[key]


# --- positions and edits --------------------------------------------------------------


def split_lines(text: str) -> list[str]:
    """Lines with their endings, split only where Python and LSP split (\\n, \\r\\n, \\r)."""
    return _LINE.findall(text)


def units(text: str, encoding: str) -> int:
    """The length of `text` in the code units of a position encoding."""
    if encoding == lsp.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == lsp.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_client(lines: Sequence[str], line: int, column: int, encoding: str) -> lsp.Position:
    """A 0-based line and code-point column as an LSP position in `encoding`."""
    text = lines[line] if line < len(lines) else ""
    return lsp.Position(line, units(text[:column], encoding))


def from_client(lines: Sequence[str], position: lsp.Position, encoding: str) -> int:
    """The code-point column of an LSP position."""
    text = lines[position.line] if position.line < len(lines) else ""
    column = 0
    while column < len(text) and units(text[: column + 1], encoding) <= position.character:
        column += 1
    return column


def span_range(span: Span, lines: Sequence[str], encoding: str) -> lsp.Range:
    return lsp.Range(
        to_client(lines, span.line - 1, span.column - 1, encoding),
        to_client(lines, span.end_line - 1, span.end_column - 1, encoding),
    )


def _line_start(lines: Sequence[str], index: int, encoding: str) -> lsp.Position:
    """The start of line `index`; past an unterminated last line, its end."""
    if index == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
        return lsp.Position(index - 1, units(lines[-1], encoding))
    return lsp.Position(index, 0)


def text_edits(old: str, new: str, encoding: str) -> list[lsp.TextEdit]:
    """One TextEdit per changed hunk of a line diff between `old` and `new`."""
    a, b = split_lines(old), split_lines(new)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    matcher = difflib.SequenceMatcher(None, a[head : len(a) - tail], b[head : len(b) - tail])
    return [
        lsp.TextEdit(
            lsp.Range(_line_start(a, head + i1, encoding), _line_start(a, head + i2, encoding)),
            "".join(b[head + j1 : head + j2]),
        )
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


# --- diagnostics, actions, hover ------------------------------------------------------


def docs_link(rule_id: str) -> lsp.CodeDescription | None:
    """A file URI of the rule's page under docs/rules/, where this checkout has it."""
    rule = BY_ID.get(rule_id)
    page = DOCS / f"{rule_id}-{rule.name}.md" if rule else None
    if page is None or not page.is_file():
        return None
    return lsp.CodeDescription(href=page.as_uri())


def diagnostic(finding: Finding, lines: Sequence[str], encoding: str) -> lsp.Diagnostic:
    rule = BY_ID.get(finding.rule)
    warn = rule is not None and rule.severity == "warning"
    return lsp.Diagnostic(
        range=span_range(finding.span, lines, encoding),
        message=finding.message,
        severity=lsp.DiagnosticSeverity.Warning if warn else lsp.DiagnosticSeverity.Information,
        code=finding.rule,
        code_description=docs_link(finding.rule),
        source=SOURCE,
    )


def error_diagnostic(error: AutooptError, lines: Sequence[str]) -> lsp.Diagnostic:
    """The whole line of a syntax error (line 1 when the error names none)."""
    line = max((error.line or 1) - 1, 0)
    text = lines[line] if line < len(lines) else ""
    end = len(text.rstrip("\r\n"))
    indent = end - len(text.rstrip("\r\n").lstrip())
    return lsp.Diagnostic(
        range=lsp.Range(lsp.Position(line, indent), lsp.Position(line, end)),
        message=error.message,
        severity=lsp.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def diagnostics(analysis: Analysis, encoding: str) -> list[lsp.Diagnostic]:
    lines = split_lines(analysis.text)
    if analysis.error is not None:
        return [error_diagnostic(analysis.error, lines)]
    return [diagnostic(f, lines, encoding) for f in analysis.findings]


def cell_diagnostics(analysis: Analysis, encoding: str) -> dict[str, list[lsp.Diagnostic]]:
    """Each Python cell's diagnostics, in its own lines: the syntax error of a cell left
    out, an error the analysis met, the findings."""
    cells = analysis.cells
    assert cells is not None
    out: dict[str, list[lsp.Diagnostic]] = {uri: [] for uri in cells.code_cells()}
    errors = cells.skipped()
    if analysis.error is not None:
        errors.append(cells.error(analysis.error))
    for uri, error in errors:
        out[uri].append(error_diagnostic(error, split_lines(cells.source(uri))))
    for finding in analysis.findings:
        uri, mapped = cells.locate(finding)
        out[uri].append(diagnostic(mapped, split_lines(cells.source(uri)), encoding))
    return out


@dataclass
class View:
    """One document as a request sees it, a file or a notebook cell: its text and the
    findings in it, each counted in its lines beside the finding as analysed."""

    uri: str
    text: str
    analysis: Analysis
    shown: list[tuple[Finding, Finding]]

    @classmethod
    def of_file(cls, uri: str, analysis: Analysis) -> View:
        return cls(uri, analysis.text, analysis, [(f, f) for f in analysis.findings])

    @classmethod
    def of_cell(cls, uri: str, analysis: Analysis) -> View:
        cells = analysis.cells
        assert cells is not None
        shown = []
        for finding in analysis.findings:
            cell, mapped = cells.locate(finding)
            if cell == uri:
                shown.append((mapped, finding))
        return cls(uri, cells.source(uri), analysis, shown)

    @property
    def lines(self) -> list[str]:
        return split_lines(self.text)

    def find(self, key: list[Any]) -> Finding | None:
        """The finding as analysed whose shown form `key_of` names."""
        return next((f for shown, f in self.shown if key_of(shown) == key), None)


def action_kind(finding: Finding, settings: Settings) -> str | None:
    """quickfix for a safe fix, refactor.rewrite for an unsafe one the settings allow."""
    if not api.applicable(finding, settings):
        return None
    if finding.fix is Applicability.SAFE:
        return lsp.CodeActionKind.QuickFix
    return lsp.CodeActionKind.RefactorRewrite


def action_title(finding: Finding) -> str:
    title = finding.title or f"Fix {finding.rule} {finding.name}"
    return title if finding.fix is Applicability.SAFE else f"{title} (unsafe)"


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether `kind` is asked for: `only` entries match as dotted prefixes."""
    return not only or any(kind == o or kind.startswith(f"{o}.") for o in only)


def touches(span: Span, requested: lsp.Range) -> bool:
    return span.line - 1 <= requested.end.line and requested.start.line <= span.end_line - 1


def explanation(finding: Finding) -> str:
    rule = BY_ID.get(finding.rule)
    doc = rule.doc() if rule else ""
    return f"**{finding.rule} {finding.name}**: {finding.message}\n\n{doc}".strip()


def contains(span: Span, line: int, column: int) -> bool:
    """Whether 1-based (line, column) lies in the span, its end included."""
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


# --- the server -----------------------------------------------------------------------


class AutooptServer(LanguageServer):
    """Keeps client settings, one analysis and one tracker per open document (a notebook
    is one document, its cells joined), and pending publications."""

    def __init__(self) -> None:
        super().__init__("autoopt", __version__, notebook_document_sync=NOTEBOOK_SYNC)
        self.client_settings = ClientSettings()
        self.incremental = os.environ.get("AUTOOPT_LSP_INCREMENTAL", "1") != "0"
        self._analyses: dict[str, tuple[object, Settings, asyncio.Future[Analysis]]] = {}
        self._trackers: dict[str, Tracker] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._published_cells: dict[str, set[str]] = {}
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autoopt-analysis")

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Log errors outside a request (unreadable JSON, a failed notification), no popup."""
        message = f"autoopt: {type(error).__name__}: {error}"
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, message))

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or lsp.PositionEncodingKind.Utf16

    def settings_for(self, uri: str) -> Settings:
        """pyproject's [tool.autoopt] nearest the document (or the workspace), then the
        client; in a test file (`test-files`), fixes never reach into a test function, as
        with `rewrite --include-tests`."""
        path = Path(to_fs_path(uri) or uri) if uri.startswith("file:") else None
        start = path.parent if path else Path(self.workspace.root_path or Path.cwd())
        settings = self.client_settings.over(load_settings(start))
        if path is not None and test_files(settings, [str(path.parent)])(str(path)):
            settings = settings.merged(test_file=True)  # test functions' bodies keep their code
        return settings

    def is_notebook(self, uri: str) -> bool:
        return self.workspace.get_notebook_document(notebook_uri=uri) is not None

    def cells(self, uri: str) -> tuple[Entry, ...] | None:
        """The notebook's cells and their texts (None for markup and other languages)."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            return None
        entries = []
        for cell in notebook.cells:
            doc = self.workspace.text_documents.get(unquote(cell.document))
            python = cell.kind == lsp.NotebookCellKind.Code and doc is not None
            python = python and doc.language_id in (None, "", "python")
            entries.append((cell.document, doc.source if python and doc else None))
        return tuple(entries)

    async def analyse(self, doc: TextDocument) -> Analysis:
        """The analysis of the document's current text: cached, in flight, or started now.
        Raises `Stale` when the text changes before it is done."""
        text, path = doc.source, doc.path or doc.uri
        run = partial(Analysis.run, text, path)
        return await self._analysis(doc.uri, text, run, partial(self._unchanged, doc.uri, text))

    async def analyse_notebook(self, uri: str) -> Analysis:
        """The analysis of an open notebook's current cells, as `analyse`."""
        entries = self.cells(uri)
        if entries is None:
            raise Stale(uri)
        run = partial(Analysis.of_notebook, entries, to_fs_path(uri) or uri)
        return await self._analysis(uri, entries, run, partial(self._same_cells, uri, entries))

    async def _analysis(
        self, uri: str, key: object, run: Callable[..., Analysis], checkpoint: Callable[[], None]
    ) -> Analysis:
        settings = self.settings_for(uri)
        cached = self._analyses.get(uri)
        if cached is None or cached[0] != key or cached[1] != settings:
            tracker = self._trackers.setdefault(uri, Tracker(self.incremental))
            work = partial(run, settings, tracker, checkpoint)
            loop = asyncio.get_running_loop()
            future = asyncio.ensure_future(loop.run_in_executor(self._worker, work))
            cached = (key, settings, future)
            self._analyses[uri] = cached
        try:
            return await asyncio.shield(cached[2])
        except Stale:
            if self._analyses.get(uri) is cached:
                del self._analyses[uri]
            raise

    def _unchanged(self, uri: str, text: str) -> None:
        """Raise `Stale` if the document no longer has `text` (runs on the worker)."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None or doc.source != text:
            raise Stale(uri)

    def _same_cells(self, uri: str, entries: tuple[Entry, ...]) -> None:
        """Raise `Stale` if the notebook's cells changed (runs on the worker)."""
        if self.cells(uri) != entries:
            raise Stale(uri)

    def busy(self, uri: str) -> bool:
        """Whether a publication or an analysis for `uri` is still pending."""
        task, cached = self._pending.get(uri), self._analyses.get(uri)
        running = cached is not None and not cached[2].done()
        return running or (task is not None and not task.done())

    def schedule(self, uri: str, delay: float) -> None:
        """(Re)start the countdown to publishing diagnostics for `uri`."""
        if (task := self._pending.pop(uri, None)) is not None:
            task.cancel()
        self._pending[uri] = asyncio.get_running_loop().create_task(self._publish_after(uri, delay))

    async def _publish_after(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await (self.publish_notebook(uri) if self.is_notebook(uri) else self.publish(uri))
        except Exception:  # a background task has no one to report to but the log
            logger.exception("publishing diagnostics for %s failed", uri)

    async def publish(self, uri: str) -> None:
        """Diagnostics for the document's version, unless it changed or closed meanwhile."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return
        version = doc.version
        try:
            analysis = await self.analyse(doc)
        except Stale:
            return  # the newer version publishes
        current = self.workspace.text_documents.get(uri)
        if current is not doc or doc.version != version or doc.source != analysis.text:
            return
        params = lsp.PublishDiagnosticsParams(uri, diagnostics(analysis, self.encoding), version)
        self.text_document_publish_diagnostics(params)

    async def publish_notebook(self, uri: str) -> None:
        """Each Python cell's diagnostics, unless the cells changed meanwhile; a cell no
        longer in the notebook, or no longer Python, gets none."""
        try:
            analysis = await self.analyse_notebook(uri)
        except Stale:
            return
        cells = analysis.cells
        if cells is None or self.cells(uri) != cells.entries:
            return
        found = cell_diagnostics(analysis, self.encoding)
        for gone in self._published_cells.get(uri, set()) - set(found):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(gone, []))
        for cell, items in found.items():
            doc = self.workspace.text_documents.get(unquote(cell))
            version = doc.version if doc is not None else None
            params = lsp.PublishDiagnosticsParams(cell, items, version)
            self.text_document_publish_diagnostics(params)
        self._published_cells[uri] = set(found)

    def forget(self, uri: str) -> None:
        if (task := self._pending.pop(uri, None)) is not None:
            task.cancel()
        self._analyses.pop(uri, None)
        self._trackers.pop(uri, None)
        cells = self._published_cells.pop(uri, None)
        for target in sorted(cells) if cells is not None else [uri]:
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(target, []))

    def refresh(self) -> None:
        """Analyse every open document again (settings changed)."""
        self._analyses.clear()
        notebooks = self.workspace.notebook_documents.values()
        cells = {unquote(c.document) for n in notebooks for c in n.cells}
        for uri in list(self.workspace.notebook_documents) + list(self.workspace.text_documents):
            if uri not in cells:
                self.schedule(uri, 0)

    def resolves_edits(self) -> bool:
        """Whether the client fills in a code action's edit with codeAction/resolve."""
        text = self.client_capabilities.text_document
        action = text.code_action if text else None
        support = action.resolve_support if action else None
        return bool(support and "edit" in support.properties)

    def view_edit(self, view: View, new: str) -> lsp.WorkspaceEdit:
        """The edit turning the view's analysed text into `new`: of the file, or of each
        notebook cell that changes (raises `AutooptError` for code moved across cells)."""
        cells = view.analysis.cells
        if cells is None:
            return self.workspace_edit({view.uri: (view.analysis.text, new)})
        changed = cells.fixed(new)
        return self.workspace_edit({uri: (cells.source(uri), new) for uri, new in changed.items()})

    def workspace_edit(self, changes: dict[str, tuple[str, str]]) -> lsp.WorkspaceEdit:
        """Line-hunk edits turning each document's old text into its new one."""
        edits = {uri: text_edits(old, new, self.encoding) for uri, (old, new) in changes.items()}
        caps = self.client_capabilities.workspace
        versioned = caps and caps.workspace_edit and caps.workspace_edit.document_changes
        if not versioned:
            return lsp.WorkspaceEdit(changes=edits)
        versioned_edits = [lsp.TextDocumentEdit(self._versioned(u), e) for u, e in edits.items()]
        return lsp.WorkspaceEdit(document_changes=versioned_edits)

    def _versioned(self, uri: str) -> lsp.OptionalVersionedTextDocumentIdentifier:
        doc = self.workspace.text_documents.get(unquote(uri))
        return lsp.OptionalVersionedTextDocumentIdentifier(uri, doc.version if doc else None)


SERVER = AutooptServer()


async def _document(ls: AutooptServer, uri: str) -> View | None:
    """The document (a file or a notebook cell) and its analysis; None if it cannot be
    read or changed meanwhile."""
    notebook = ls.workspace.get_notebook_document(cell_uri=uri)
    if notebook is not None:
        return await _cell(ls, unquote(notebook.uri), uri)
    try:
        doc = ls.workspace.get_text_document(uri)
        analysis = await ls.analyse(doc)
    except (OSError, UnicodeDecodeError, ValueError, Stale):
        return None
    return View.of_file(uri, analysis) if doc.source == analysis.text else None


async def _cell(ls: AutooptServer, notebook: str, uri: str) -> View | None:
    try:
        analysis = await ls.analyse_notebook(notebook)
    except Stale:
        return None
    cells = analysis.cells
    if cells is None or ls.cells(notebook) != cells.entries or uri not in cells.code_cells():
        return None
    return View.of_cell(uri, analysis)


@SERVER.feature(lsp.INITIALIZE)
def initialize(ls: AutooptServer, params: lsp.InitializeParams) -> None:
    ls.client_settings = ClientSettings.parse(params.initialization_options)


@SERVER.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: AutooptServer, params: lsp.DidChangeConfigurationParams) -> None:
    ls.client_settings = ClientSettings.parse(params.settings)
    ls.refresh()


@SERVER.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AutooptServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@SERVER.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: AutooptServer, params: lsp.DidChangeTextDocumentParams) -> None:
    """After the burst window following a pause; debounced while the last edit's work is
    still pending."""
    uri = params.text_document.uri
    ls.schedule(uri, DEBOUNCE_S if ls.busy(uri) else BURST_S)


@SERVER.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: AutooptServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@SERVER.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AutooptServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


@SERVER.feature(lsp.NOTEBOOK_DOCUMENT_DID_OPEN)
def did_open_notebook(ls: AutooptServer, params: lsp.DidOpenNotebookDocumentParams) -> None:
    ls.schedule(unquote(params.notebook_document.uri), 0)  # as the workspace keys it


@SERVER.feature(lsp.NOTEBOOK_DOCUMENT_DID_CHANGE)
def did_change_notebook(ls: AutooptServer, params: lsp.DidChangeNotebookDocumentParams) -> None:
    """Cells edited, added, removed or moved: as `did_change`, for the whole notebook."""
    uri = unquote(params.notebook_document.uri)
    ls.schedule(uri, DEBOUNCE_S if ls.busy(uri) else BURST_S)


@SERVER.feature(lsp.NOTEBOOK_DOCUMENT_DID_SAVE)
def did_save_notebook(ls: AutooptServer, params: lsp.DidSaveNotebookDocumentParams) -> None:
    ls.schedule(unquote(params.notebook_document.uri), 0)


@SERVER.feature(lsp.NOTEBOOK_DOCUMENT_DID_CLOSE)
def did_close_notebook(ls: AutooptServer, params: lsp.DidCloseNotebookDocumentParams) -> None:
    ls.forget(unquote(params.notebook_document.uri))


def _actions(
    view: View, requested: lsp.Range, only: Sequence[str] | None, encoding: str
) -> list[tuple[lsp.CodeAction, list[Finding]]]:
    """The code actions for a range, each with the findings whose fixes it applies."""
    lines, settings = view.lines, view.analysis.settings
    found: list[tuple[lsp.CodeAction, list[Finding]]] = []
    for shown, finding in view.shown:
        kind = action_kind(finding, settings)
        if kind is None or not touches(shown.span, requested) or not wanted(kind, only):
            continue
        action = lsp.CodeAction(
            title=action_title(finding),
            kind=kind,
            diagnostics=[diagnostic(shown, lines, encoding)],
            is_preferred=kind == lsp.CodeActionKind.QuickFix,
            data={"uri": view.uri, "finding": key_of(shown)},
        )
        found.append((action, [finding]))
    fix_all = view.analysis.fix_all()
    if fix_all and wanted(FIX_ALL, only):
        data = {"uri": view.uri, "all": True}
        found.append((lsp.CodeAction("autoopt: fix all", kind=FIX_ALL, data=data), fix_all))
    return found


@SERVER.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[
            lsp.CodeActionKind.QuickFix,
            lsp.CodeActionKind.RefactorRewrite,
            FIX_ALL,
        ],
        resolve_provider=True,
    ),
)
async def code_action(ls: AutooptServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    view = await _document(ls, params.text_document.uri)
    if view is None or view.analysis.error is not None:
        return []
    found = _actions(view, params.range, params.context.only, ls.encoding)
    if ls.resolves_edits():
        return [action for action, _ in found]
    return [_with_edit(ls, view, action, findings) for action, findings in found]


def _with_edit(
    ls: AutooptServer, view: View, action: lsp.CodeAction, findings: list[Finding]
) -> lsp.CodeAction:
    analysis = view.analysis
    try:
        fixed = analysis.fixed_all() if action.kind == FIX_ALL else analysis.fixed(findings)
        action.edit = ls.view_edit(view, fixed)
    except AutooptError as exc:  # code that does not parse, or moved across notebook cells
        logger.error("%s", exc)
    return action


@SERVER.feature(lsp.CODE_ACTION_RESOLVE)
async def resolve_code_action(ls: AutooptServer, action: lsp.CodeAction) -> lsp.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    view = await _document(ls, str(data.get("uri", "")))
    if view is None or view.analysis.error is not None:
        return action
    finding = view.find(data.get("finding", []))
    findings = view.analysis.fix_all() if data.get("all") else [finding] if finding else []
    return _with_edit(ls, view, action, findings) if findings else action


@SERVER.feature(lsp.TEXT_DOCUMENT_HOVER)
async def hover(ls: AutooptServer, params: lsp.HoverParams) -> lsp.Hover | None:
    view = await _document(ls, params.text_document.uri)
    if view is None:
        return None
    lines = view.lines
    line, column = params.position.line + 1, from_client(lines, params.position, ls.encoding) + 1
    hits = [shown for shown, _ in view.shown if contains(shown.span, line, column)]
    if not hits:
        return None
    text = "\n\n---\n\n".join(explanation(f) for f in hits)
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
        range=span_range(hits[0].span, lines, ls.encoding),
    )


# --- verification ---------------------------------------------------------------------


def _uri_argument(args: Sequence[Any]) -> str | None:
    """The document to verify: `[uri]` or `[{"uri": uri}]`."""
    first = args[0] if args else None
    if isinstance(first, dict):
        first = first.get("uri")
    return first if isinstance(first, str) else None


def _verifier() -> Callable[..., Any] | None:
    """autoopt.verify.verify_file, or None where this install lacks it or jax (the
    `verify` extra) that it runs programs with."""
    try:
        from autoopt.verify import verify_file
    except ImportError:
        return None
    return verify_file if missing_jax(VERIFY_COMMAND) is None else None


def summary(report: Any) -> str:
    """One line about a VerifyReport."""
    name = Path(report.path).name
    if report.error:
        return f"{name}: verification could not run: {report.error}"
    if not report.rows:
        return f"{name}: nothing to verify"
    kept = len(report.accepted)
    return f"{name}: {kept} of {len(report.rows)} rewrite(s) verified and kept"


@SERVER.command(VERIFY_COMMAND)
async def verify_command(ls: AutooptServer, *args: Any) -> dict[str, Any]:
    """Start verifying a saved file in the background; progress and result follow."""
    uri = _uri_argument(args)
    if uri is None or not uri.startswith("file:"):
        return {"started": False, "message": "autoopt.verify needs the URI of a saved file"}
    token = str(uuid.uuid4())
    asyncio.get_running_loop().create_task(_verify(ls, uri, token))
    return {"started": True, "token": token}


async def _verify(ls: AutooptServer, uri: str, token: str) -> None:
    doc = ls.workspace.get_text_document(uri)
    progress = await _begin_progress(ls, token, f"verifying {doc.filename}")
    verify_file = _verifier()
    if verify_file is None:
        message = missing_jax(VERIFY_COMMAND) or "autoopt.verify is not installed"
        kind = lsp.MessageType.Error
    else:
        report = progress or (lambda _message: None)
        message, kind = await _run_verifier(ls, doc, verify_file, report)
    if progress is not None:
        ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=message))
    ls.window_show_message(lsp.ShowMessageParams(kind, f"autoopt: {message}"))


async def _begin_progress(
    ls: AutooptServer, token: str, title: str
) -> Callable[[str], None] | None:
    """Begin $/progress where the client takes it; a thread-safe reporter, or None."""
    window = ls.client_capabilities.window
    if not (window and window.work_done_progress):
        return None
    try:
        await ls.work_done_progress.create_async(token)
    except JsonRpcException as exc:  # the client refused the token: no progress, same result
        logger.warning("no progress reporting: %s", exc)
        return None
    ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(f"autoopt: {title}"))
    loop = asyncio.get_running_loop()

    def report(message: str) -> None:
        value = lsp.WorkDoneProgressReport(message=message)
        loop.call_soon_threadsafe(ls.work_done_progress.report, token, value)

    return report


async def _run_verifier(
    ls: AutooptServer, doc: TextDocument, verify_file: Callable[..., Any], report: Callable
) -> tuple[str, lsp.MessageType]:
    path = Path(doc.path)
    settings = ls.settings_for(doc.uri)
    run = partial(verify_file, path, settings=settings, progress=report)
    try:
        result = await asyncio.get_running_loop().run_in_executor(None, run)
    except Exception as exc:  # the verifier's failure is the user's answer, not a crash
        return f"{path.name}: verification failed: {exc}", lsp.MessageType.Error
    note = ""
    if path.is_file() and doc.source != path.read_text(encoding="utf-8"):
        note = " (the saved file; unsaved changes were not verified)"
    kind = lsp.MessageType.Info if not result.error else lsp.MessageType.Warning
    return summary(result) + note, kind


def main() -> None:
    """Serve LSP over stdin/stdout until the client exits."""
    logging.basicConfig(level=logging.WARNING)
    # An analysis allocates many short-lived objects beside a large syntax tree that
    # lives until the next edit: collect young objects less often, and never scan the
    # modules loaded by now (a full collection then costs far less).
    gc.set_threshold(GC_YOUNG)
    gc.freeze()
    SERVER.start_io()


if __name__ == "__main__":
    main()
