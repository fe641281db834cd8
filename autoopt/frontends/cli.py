"""The `autoopt` command line: a thin layer over the pipeline and the workspace."""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from autoopt.config import Settings, load_settings, parse_codes
from autoopt.model import AutooptError, Finding
from autoopt.report.findings import error_line, json_document, text_line, unified_diff
from autoopt.rules import ALL_RULES, BY_ID
from autoopt.workspace.discover import discover
from autoopt.workspace.runner import FileOutcome, run
from autoopt.workspace.source_file import write_atomic

app = typer.Typer(
    name="autoopt",
    help="Find and fix avoidable host work, transfers, copies and memory in JAX programs.",
    add_completion=False,
    no_args_is_help=True,
)

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2


class Format(str, Enum):
    text = "text"
    json = "json"


Paths = Annotated[list[str], typer.Argument(help="Files or folders to process.")]
Select = Annotated[
    str | None, typer.Option("--select", help="Rule codes or prefixes to run, e.g. AO101,AO2.")
]
Ignore = Annotated[str | None, typer.Option("--ignore", help="Rule codes or prefixes to skip.")]
Unsafe = Annotated[
    bool, typer.Option("--unsafe-fixes", help="Also apply fixes whose safety is not proven.")
]
FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")]
Exclude = Annotated[
    list[str] | None, typer.Option("--exclude", help="Glob of paths to skip (repeatable).")
]
NoProgress = Annotated[bool, typer.Option("--no-progress", help="Do not show a progress bar.")]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Do not read or write the result cache.")]


def _settings(paths: list[str], select: str | None, ignore: str | None, unsafe: bool) -> Settings:
    base = load_settings(Path(paths[0]) if paths else Path.cwd())
    return base.merged(
        select=parse_codes(select), ignore=parse_codes(ignore), unsafe_fixes=unsafe or None
    )


def _collect(
    paths: list[str], settings: Settings, exclude: list[str] | None, jobs: int
) -> tuple[list[FileOutcome], list[AutooptError]]:
    errors: list[AutooptError] = []
    files = []
    for path in paths:
        try:
            files.extend(discover([path], [*settings.exclude, *(exclude or [])]))
        except AutooptError as exc:
            errors.append(exc)
    outcomes = run(files, settings, jobs or os.cpu_count() or 1)
    errors.extend(o.error for o in outcomes if o.error is not None)
    return outcomes, errors


def _findings(outcomes: list[FileOutcome]) -> list[Finding]:
    return [f for o in outcomes if o.result for f in o.result.findings]


def _report_errors(errors: list[AutooptError]) -> None:
    for error in errors:
        typer.echo(error_line(error), err=True)


@app.command()
def check(
    paths: Paths,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    output_format: FormatOpt = Format.text,
    jobs: Jobs = 0,
    exclude: Exclude = None,
    no_progress: NoProgress = False,
    no_cache: NoCache = False,
) -> None:
    """List findings, one line each. Exit 0: none, 1: findings, 2: error."""
    settings = _settings(paths, select, ignore, unsafe_fixes)
    outcomes, errors = _collect(paths, settings, exclude, jobs)
    findings = _findings(outcomes)
    if output_format is Format.json:
        typer.echo(json_document(len(outcomes), findings, errors))
    else:
        for finding in findings:
            typer.echo(text_line(finding))
        _report_errors(errors)
    raise typer.Exit(EXIT_ERROR if errors else EXIT_FOUND if findings else EXIT_OK)


@app.command()
def rewrite(
    paths: Paths,
    write: Annotated[bool, typer.Option("--write", help="Apply the rewrites in place.")] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Print a unified diff (the default).")
    ] = True,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    output_format: FormatOpt = Format.text,
    jobs: Jobs = 0,
    exclude: Exclude = None,
    no_progress: NoProgress = False,
    no_cache: NoCache = False,
) -> None:
    """Show the rewrites as a diff, or apply them with --write.

    Exit 0: nothing to do (or written), 1: changes shown, 2: error.
    """
    settings = _settings(paths, select, ignore, unsafe_fixes)
    outcomes, errors = _collect(paths, settings, exclude, jobs)
    changed = [o for o in outcomes if o.result is not None and o.result.changed]
    written = 0
    for outcome in changed:
        assert outcome.result is not None and outcome.source is not None
        if write:
            try:
                write_atomic(outcome.source, outcome.result.new_source, outcome.display)
                written += 1
            except AutooptError as exc:
                errors.append(exc)
        elif diff:
            old, new = outcome.result.source, outcome.result.new_source
            typer.echo(unified_diff(outcome.display, old, new), nl=False)
    if write:
        typer.echo(f"rewrote {written} file(s)", err=True)
    _report_errors(errors)
    if errors:
        raise typer.Exit(EXIT_ERROR)
    raise typer.Exit(EXIT_OK if write or not changed else EXIT_FOUND)


@app.command()
def rules() -> None:
    """List every rule: id, name, summary."""
    for rule in ALL_RULES:
        typer.echo(f"{rule.id}  {rule.name:<26} {rule.summary}")


@app.command()
def explain(
    rule_id: Annotated[str, typer.Argument(help="A rule id, e.g. AO101, or its name.")],
) -> None:
    """Print a rule's documentation."""
    rule = BY_ID.get(rule_id.upper()) or next((r for r in ALL_RULES if r.name == rule_id), None)
    if rule is None:
        typer.echo(f"error: unknown rule {rule_id!r}; `autoopt rules` lists them", err=True)
        raise typer.Exit(EXIT_ERROR)
    typer.echo(f"# {rule.id} {rule.name}\n\n{rule.doc()}")


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
