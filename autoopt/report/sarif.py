"""Findings as SARIF 2.1.0, in the subset GitHub code scanning accepts.

Rule ids are the stable AO codes; locations are relative URIs (base
`%SRCROOT%`) where the path was given relative; columns count code points; in a
notebook the region counts lines within the cell named by the `cell` property; each
result carries `partialFingerprints.primaryLocationLineHash` (a hash of the
stripped source line, with an occurrence count) so alerts survive line moves.
Errors become tool execution notifications.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from urllib.parse import quote

from autoopt._version import __version__
from autoopt.model import AutooptError, Finding
from autoopt.report.cells import cell_key
from autoopt.rules import ALL_RULES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFO_URI = "https://github.com/autoopt/autoopt"
_LEVEL = {"safe": "warning", "unsafe": "warning", "none": "note"}


def sarif_document(
    findings: Sequence[Finding],
    errors: Sequence[AutooptError],
    sources: Mapping[str, str] | None = None,
) -> str:
    """One SARIF log with one run; `sources` (path -> text) feeds the fingerprints."""
    ids = [rule.id for rule in ALL_RULES]
    fingerprints = _fingerprints(findings, sources or {})
    run = {
        "tool": {"driver": _driver()},
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
        "results": [_result(f, ids, fp) for f, fp in zip(findings, fingerprints, strict=True)],
        "invocations": [_invocation(errors)],
    }
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2)


def _driver() -> dict:
    return {
        "name": "autoopt",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": INFO_URI,
        "rules": [
            {
                "id": rule.id,
                "name": rule.name,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.summary},
                "help": {"text": rule.doc(), "markdown": rule.doc()},
                "defaultConfiguration": {"level": "warning"},
                "properties": {"tags": ["performance", "jax"]},
            }
            for rule in ALL_RULES
        ],
    }


def _result(finding: Finding, ids: list[str], fingerprint: str) -> dict:
    span = finding.span
    cell = {} if finding.cell is None else {"cell": finding.cell}
    result: dict[str, object] = {
        "ruleId": finding.rule,
        "level": _LEVEL.get(finding.fix.value, "warning"),
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact(finding.path),
                    "region": {
                        "startLine": span.line,
                        "startColumn": span.column,
                        "endLine": span.end_line,
                        "endColumn": max(span.end_column, 1),
                    },
                }
            }
        ],
        "partialFingerprints": {"primaryLocationLineHash": fingerprint},
        "properties": {**cell, "fix": finding.fix.value, "name": finding.name},
    }
    if finding.rule in ids:
        result["ruleIndex"] = ids.index(finding.rule)
    return result


def artifact(path: str) -> dict:
    """A SARIF artifactLocation: a relative URI against %SRCROOT%, or a file URI."""
    pure = PurePath(path)
    if pure.is_absolute():
        return {"uri": Path(path).as_uri()}
    parts = [p for p in pure.as_posix().split("/") if p not in ("", ".")]
    return {"uri": quote("/".join(parts)), "uriBaseId": "%SRCROOT%"}


def _fingerprints(findings: Sequence[Finding], sources: Mapping[str, str]) -> list[str]:
    """`<hash of the stripped line>:<n>`, n counting repeats of the same hash in a file."""
    seen: Counter[tuple[str, str]] = Counter()
    out = []
    lines = {path: text.splitlines() for path, text in sources.items()}
    for finding in findings:
        key = finding.path if finding.cell is None else cell_key(finding.path, finding.cell)
        text = lines.get(key, [])
        line = text[finding.span.line - 1] if finding.span.line <= len(text) else ""
        digest = hashlib.sha256(f"{finding.rule}\0{line.strip()}".encode()).hexdigest()[:16]
        seen[(finding.path, digest)] += 1
        out.append(f"{digest}:{seen[(finding.path, digest)]}")
    return out


def _invocation(errors: Sequence[AutooptError]) -> dict:
    return {
        "executionSuccessful": not errors,
        "toolExecutionNotifications": [
            {
                "level": "error",
                "message": {"text": error.message},
                **({"properties": {"cell": error.cell}} if error.cell else {}),
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": artifact(error.path),
                            **({"region": {"startLine": error.line}} if error.line else {}),
                        }
                    }
                ],
            }
            for error in errors
        ],
    }
