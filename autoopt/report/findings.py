"""Findings as text lines or one JSON document (the contract in design.md)."""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Mapping, Sequence

from autoopt._version import __version__
from autoopt.model import AutooptError, Finding


def text_line(finding: Finding) -> str:
    """`path:line:col: AO101 message [fix: safe]`; in a notebook `path:cell N:line:col: ...`."""
    return f"{position(finding)}: {finding.rule} {finding.message} [fix: {finding.fix.value}]"


def position(finding: Finding) -> str:
    """`path:line:col`, in a notebook `path:cell N:line:col`."""
    cell = "" if finding.cell is None else f"cell {finding.cell}:"
    return f"{finding.path}:{cell}{finding.span.line}:{finding.span.column}"


def statistics_lines(findings: Sequence[Finding], names: Mapping[str, str]) -> list[str]:
    """One line per rule code, `  12 AO301 loop-invariant-transfer`, most findings first
    (then by code); counts right-aligned to the widest."""
    counts = sorted(Counter(f.rule for f in findings).items(), key=lambda kv: (-kv[1], kv[0]))
    width = max((len(str(n)) for _, n in counts), default=1)
    return [f"{n:>{width}} {code} {names.get(code, '')}".rstrip() for code, n in counts]


def error_line(error: AutooptError) -> str:
    return f"error: {error}"


def json_document(
    files: int,
    findings: Sequence[Finding],
    errors: Sequence[AutooptError],
    diff: str | None = None,
) -> str:
    """The JSON report; `diff` (from `rewrite`): the unified diff of every rewritten file."""
    document: dict[str, object] = {
        "version": __version__,
        "files": files,
        "findings": [f.to_json() for f in findings],
        "errors": [e.to_json() for e in errors],
    }
    if diff is not None:
        document["diff"] = diff
    return json.dumps(document, indent=2)


def unified_diff(path: str, old: str, new: str) -> str:
    """A diff that `patch -p0` and `git apply -p0` accept."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), path, path
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
