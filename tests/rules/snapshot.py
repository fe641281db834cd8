"""A rule's findings and rewrites of one fixture file, rendered as a snapshot text.

The findings are printed as `autoopt check` prints them (less the path), the rewrites
as `autoopt rewrite` prints them: the default one (safe fixes), then the one with
`--unsafe-fixes` where it differs.
"""

from __future__ import annotations

from autoopt.model import Finding, Result
from autoopt.report.findings import text_line, unified_diff


def finding_line(finding: Finding) -> str:
    """`line:col: AO101 message [fix: safe]`: the text reporter's line, less the path."""
    return text_line(finding).removeprefix(f"{finding.path}:")


def render(name: str, safe: Result, unsafe: Result) -> str:
    """The snapshot of the fixture `name`: `safe` and `unsafe` are the runs of one rule
    over it without and with `--unsafe-fixes`."""
    lines = [f"findings ({len(safe.findings)}):"]
    lines += [finding_line(f) for f in safe.findings]
    default = unified_diff(name, safe.source, safe.new_source)
    lines += ["", "rewrite:", default.rstrip("\n") or "(no change)", ""]
    if unsafe.new_source == safe.new_source:
        lines += ["rewrite --unsafe-fixes: the same"]
    else:
        lines += ["rewrite --unsafe-fixes:"]
        lines += [unified_diff(name, unsafe.source, unsafe.new_source).rstrip("\n")]
    return "\n".join(lines) + "\n"
