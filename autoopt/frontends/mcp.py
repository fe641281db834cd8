"""The autoopt MCP server: check, rewrite, verify and explain as tools for coding agents.

Run it with `autoopt mcp`; it speaks the Model Context Protocol over stdio through the
official SDK (`pip install 'autoopt[mcp]'`). Each tool calls what the matching CLI
command calls (`workspace.batch`, `verify.commands`) and returns the result as typed
data. Relative paths start at the project folder, `autoopt mcp DIR` (default: the
folder the server started in).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field
from rich.console import Console

from autoopt._version import __version__
from autoopt.config import Settings, load_settings, parse_codes
from autoopt.model import AutooptError, Finding
from autoopt.report.findings import unified_diff
from autoopt.rules import ALL_RULES, BY_ID
from autoopt.verify.render import memory_pair
from autoopt.verify.report import Row, Verdict, VerifyReport
from autoopt.workspace.batch import Batch, collect, collect_text, reported, write_changes
from autoopt.workspace.source_file import read_source

INSTRUCTIONS = (
    "autoopt finds avoidable host work, transfers, copies and memory in JAX programs and "
    "rewrites them. `check` lists findings, `rewrite` shows the fixes as a unified diff "
    "(and writes them only with write=true), `verify` runs and times each rewrite, "
    "`explain` documents a rule."
)

# --- inputs ---------------------------------------------------------------------------

Paths = Annotated[
    list[str] | None,
    Field(description="Files or folders to process; relative ones start at the project folder."),
]
SourceText = Annotated[
    str | None, Field(description="Python source to process instead of files on disk.")
]
Filename = Annotated[
    str, Field(description="With `source`: the name it is shown and configured as.")
]
Codes = Annotated[
    list[str] | None,
    Field(description="Rule codes or prefixes, e.g. ['AO101', 'AO2']; default: the config's."),
]
UnsafeFixes = Annotated[
    bool, Field(description="Also apply fixes whose safety autoopt cannot prove.")
]
IncludeTests = Annotated[
    bool, Field(description="Also rewrite test and benchmark files (always checked).")
]

# --- outputs --------------------------------------------------------------------------


class FindingOut(BaseModel):
    """One finding; lines and columns 1-based."""

    code: str
    name: str
    message: str
    path: str
    cell: int | None = Field(
        default=None,
        description="In a notebook: the cell (from 1, over every cell) the lines count in.",
    )
    line: int
    column: int
    end_line: int
    end_column: int
    fix: Literal["safe", "unsafe", "none"]


class ErrorOut(BaseModel):
    """A file autoopt could not process, and why."""

    path: str
    message: str


class CheckOutput(BaseModel):
    files: int
    findings: list[FindingOut]
    errors: list[ErrorOut]


class RewriteOutput(BaseModel):
    diff: str = Field(description="Unified diff of every rewritten file (`patch -p0`).")
    fixed: list[FindingOut] = Field(description="The findings whose fixes the diff applies.")
    written: list[str] = Field(description="Files written in place (only with write=true).")
    held_back: list[str] = Field(description="Test or benchmark files left as they are.")
    new_source: str | None = Field(description="With `source`: the rewritten source.")
    errors: list[ErrorOut]


class VerifyRow(BaseModel):
    """One rewrite's verification: its decision, how equal its results, how much faster."""

    code: str
    name: str
    path: str
    line: int
    title: str
    verdict: Verdict
    accepted: bool
    reason: str
    max_abs_error: float | None
    max_rel_error: float | None
    function_speedup: float | None = Field(description="Before/after, steady state.")
    program_speedup: float | None = Field(description="Before/after, whole entry run.")
    memory_measure: str = Field(description="What the memory numbers measure.")
    memory_before: float | None = Field(description="Bytes.")
    memory_after: float | None = Field(description="Bytes.")


class VerifyOutput(BaseModel):
    path: str
    entry: str
    all_verified: bool
    rows: list[VerifyRow]
    combined: VerifyRow | None = Field(description="All accepted rewrites together.")
    accepted_diff: str = Field(description="Unified diff keeping only accepted rewrites.")
    error: str | None
    device: str
    cached: bool


class ExplainOutput(BaseModel):
    code: str
    name: str
    summary: str
    documentation: str = Field(description="Markdown: what it does, why, an example, safety.")


# --- tools ----------------------------------------------------------------------------


def check(
    paths: Paths = None,
    source: SourceText = None,
    filename: Filename = "-",
    select: Codes = None,
    ignore: Codes = None,
    unsafe_fixes: UnsafeFixes = False,
) -> CheckOutput:
    """List autoopt's findings for files or a source text (as `autoopt check`)."""
    batch = _collect(
        paths, source, filename, _settings(paths, filename, select, ignore, unsafe_fixes)
    )
    return CheckOutput(
        files=len(batch.outcomes),
        findings=[_finding(f) for f in batch.findings],
        errors=_errors(batch),
    )


def rewrite(
    paths: Paths = None,
    source: SourceText = None,
    filename: Filename = "-",
    select: Codes = None,
    ignore: Codes = None,
    unsafe_fixes: UnsafeFixes = False,
    include_tests: IncludeTests = False,
    write: Annotated[
        bool, Field(description="Write the rewrites to the files, atomically. Default: no.")
    ] = False,
) -> RewriteOutput:
    """Show autoopt's rewrites as a unified diff (as `autoopt rewrite`); files change only
    with write=true (as `autoopt rewrite --write`). Rewrites are not verified here."""
    if write and source is not None:
        raise ToolError("write needs paths: a `source` has no file to write")
    settings = _settings(paths, filename, select, ignore, unsafe_fixes, include_tests)
    batch = _collect(paths, source, filename, settings)
    diff = _diff(batch)
    if write:
        write_changes(batch)
    return RewriteOutput(
        diff=diff,
        fixed=[
            _finding(f) for o in batch.changed if o.result for f in reported(o, o.result.applied)
        ],
        written=[o.display for o in batch.written],
        held_back=[o.display for o in batch.held_back],
        new_source=_new_source(batch) if source is not None else None,
        errors=_errors(batch),
    )


def verify(
    path: Annotated[str, Field(description="The program to verify.")],
    entry: Annotated[
        str | None,
        Field(description="What runs: MODULE:FUNC or FUNC; default: a main() without arguments."),
    ] = None,
    timeout: Annotated[float, Field(description="Seconds one verification run may take.")] = 120.0,
    select: Codes = None,
    ignore: Codes = None,
    unsafe_fixes: UnsafeFixes = False,
) -> VerifyOutput:
    """Verify every rewrite of one file (as `autoopt verify`): run the program before and
    after, compare the results, time both. Slow: seconds to minutes. Writes nothing."""
    from autoopt.verify.commands import options_for, verify_paths

    settings = _settings([path], path, select, ignore, unsafe_fixes)
    options = options_for(entry, timeout)
    try:
        [(_, outcome)] = verify_paths(
            [path], settings, options, Console(stderr=True), progress=False
        )
    except AutooptError as exc:  # no executor
        outcome = exc
    if isinstance(outcome, AutooptError):
        raise ToolError(str(outcome))
    return _verified(outcome)


def explain(
    code: Annotated[str, Field(description="A rule code, e.g. AO101, or its name.")],
) -> ExplainOutput:
    """A rule's documentation (as `autoopt explain`)."""
    rule = BY_ID.get(code.upper()) or next((r for r in ALL_RULES if r.name == code), None)
    if rule is None:
        known = ", ".join(r.id for r in ALL_RULES)
        raise ToolError(f"unknown rule {code!r}; the rules are {known}")
    return ExplainOutput(
        code=rule.id, name=rule.name, summary=rule.summary, documentation=rule.doc()
    )


# --- I/O ------------------------------------------------------------------------------


def _settings(
    paths: list[str] | None,
    filename: str,
    select: list[str] | None,
    ignore: list[str] | None,
    unsafe: bool,
    include_tests: bool = False,
) -> Settings:
    """The configuration of the first path (or the source's name), with the arguments."""
    try:
        base = load_settings(Path(paths[0] if paths else filename))
    except AutooptError as exc:
        raise ToolError(str(exc)) from exc
    return base.merged(
        select=_codes(select),
        ignore=_codes(ignore),
        unsafe_fixes=unsafe or None,
        include_tests=include_tests or None,
    )


def _codes(codes: list[str] | None) -> tuple[str, ...] | None:
    return None if codes is None else parse_codes(",".join(codes))


def _collect(
    paths: list[str] | None, source: str | None, filename: str, settings: Settings
) -> Batch:
    if (paths is None) == (source is None):
        raise ToolError("give either `paths` or `source`")
    if source is not None:
        return collect_text(source, filename, settings)
    return collect(paths or [], settings)


def _finding(finding: Finding) -> FindingOut:
    span = finding.span
    return FindingOut(
        code=finding.rule,
        name=finding.name,
        message=finding.message,
        path=finding.path,
        cell=finding.cell,
        line=span.line,
        column=span.column,
        end_line=span.end_line,
        end_column=span.end_column,
        fix=finding.fix.value,
    )


def _errors(batch: Batch) -> list[ErrorOut]:
    return [ErrorOut(path=e.path, message=e.message) for e in batch.errors]


def _diff(batch: Batch) -> str:
    return "".join(
        unified_diff(o.display, o.result.source, o.result.new_source)
        for o in batch.changed
        if o.result is not None
    )


def _new_source(batch: Batch) -> str | None:
    result = batch.outcomes[0].result
    return None if result is None else result.new_source


def _verified(report: VerifyReport) -> VerifyOutput:
    return VerifyOutput(
        path=report.path,
        entry=report.entry,
        all_verified=report.exit_code == 0,
        rows=[_row(row) for row in report.rows],
        combined=_row(report.combined) if report.combined else None,
        accepted_diff=_accepted_diff(report),
        error=report.error,
        device=report.device,
        cached=report.cached,
    )


def _accepted_diff(report: VerifyReport) -> str:
    if not report.accepted:
        return ""
    return unified_diff(report.path, read_source(Path(report.path)).text, report.accepted_source)


def _row(row: Row) -> VerifyRow:
    measure, before, after = memory_pair(row)
    return VerifyRow(
        code=row.rule,
        name=row.name,
        path=row.path,
        line=row.line,
        title=row.title,
        verdict=row.verdict,
        accepted=row.verdict.accepted,
        reason=row.reason,
        max_abs_error=row.max_abs,
        max_rel_error=row.max_rel,
        function_speedup=row.function.speedup if row.function else None,
        program_speedup=row.program.speedup if row.program else None,
        memory_measure=measure,
        memory_before=before,
        memory_after=after,
    )


def server() -> MCPServer:
    """The server with its four tools."""
    app: MCPServer = MCPServer("autoopt", version=__version__, instructions=INSTRUCTIONS)
    reading = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    app.add_tool(check, annotations=reading)
    app.add_tool(
        rewrite, annotations=ToolAnnotations(destructive_hint=False, open_world_hint=False)
    )
    app.add_tool(verify)  # runs the user's program: the default hints (it may do anything)
    app.add_tool(explain, annotations=reading)
    return app


def main(root: Path | None = None) -> None:
    """Serve over stdio until the client closes the connection; relative paths start at
    `root` (the project folder) when given."""
    if root is not None:
        os.chdir(root)
    server().run("stdio")
