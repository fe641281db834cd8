"""Findings as GitHub Actions workflow commands (annotations on the pull request).

In a notebook, lines count within the cell the title names."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from autoopt.model import AutooptError, Finding


def github_lines(findings: Sequence[Finding], errors: Sequence[AutooptError]) -> Iterator[str]:
    """`::warning file=...,line=...::message` per finding, `::error ...` per error."""
    for f in findings:
        span = f.span
        props = {
            "file": f.path,
            "line": span.line,
            "col": span.column,
            "endLine": span.end_line,
            "endColumn": span.end_column,
            "title": f"{f.rule} {f.name}" + ("" if f.cell is None else f" (cell {f.cell})"),
        }
        yield _command("warning", props, f"{f.rule} {f.message} [fix: {f.fix.value}]")
    for e in errors:
        props = {
            "file": e.path,
            "title": "autoopt error" + ("" if e.cell is None else f" (cell {e.cell})"),
        }
        if e.line:
            props["line"] = e.line
        yield _command("error", props, e.message)


def _command(kind: str, props: dict[str, object], message: str) -> str:
    fields = ",".join(f"{k}={_escape_property(str(v))}" for k, v in props.items())
    return f"::{kind} {fields}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
