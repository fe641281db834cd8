"""`check --add-noqa`: each finding's code added to the suppression comment of its
statement (`# autoopt: ignore[AO101]`), and the files written back atomically.

A finding is suppressed by a comment on any line of its span
(analysis/core/suppress.py); the code goes to the first line of the span that can end
in a comment (not one inside a string or continued with a backslash), merged into the
`# autoopt: ignore[...]` it may hold. A finding none of whose lines can take a comment
is left as it is, and named.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence

from autoopt.analysis.core.suppress import suppressions, with_codes
from autoopt.model import AutooptError, Finding
from autoopt.workspace.batch import Batch, reported
from autoopt.workspace.runner import FileOutcome
from autoopt.workspace.source_file import write_atomic


def add_noqa(batch: Batch) -> tuple[int, int, list[Finding]]:
    """Add the suppressions of every file's findings: (codes added, files written, the
    findings no comment can suppress). A file that cannot be written joins `batch.errors`."""
    added = files = 0
    unplaced: list[Finding] = []
    for outcome in batch.outcomes:
        try:
            count, left = _suppress(outcome)
        except AutooptError as exc:
            batch.errors.append(exc)
            continue
        added, files, unplaced = added + count, files + bool(count), unplaced + left
    return added, files, unplaced


def _suppress(outcome: FileOutcome) -> tuple[int, list[Finding]]:
    """One file's suppressions, written: (codes added, findings left, positioned as
    reported); AutooptError where the file cannot be read as tokens or written."""
    result, source = outcome.result, outcome.source
    if result is None or source is None or not result.findings:
        return 0, []
    try:
        text, count, left = with_noqa(result.source, result.findings)
    except (tokenize.TokenError, SyntaxError) as exc:
        raise AutooptError(outcome.display, f"no suppression added: {exc}") from None
    if count:
        write_atomic(source, text, outcome.display)
    return count, reported(outcome, left)


def with_noqa(text: str, findings: Sequence[Finding]) -> tuple[str, int, list[Finding]]:
    """`text` with the findings' codes in suppression comments, how many codes (one per
    line and rule) were added, and the findings whose lines cannot take a comment."""
    comments, open_ends = _line_ends(text)
    held = suppressions(text)
    wanted: dict[int, set[str]] = {}
    unplaced = []
    for finding in findings:
        span = range(finding.span.line, finding.span.end_line + 1)
        line = next((number for number in span if number in open_ends), None)
        if line is None:
            unplaced.append(finding)
        else:
            wanted.setdefault(line, set()).add(finding.rule)
    lines = io.StringIO(text).readlines()  # as tokenize numbers them (not at \f)
    added = 0
    for number, codes in wanted.items():
        new = codes - held.get(number, frozenset())
        if not new:
            continue
        lines[number - 1] = _commented(lines[number - 1], comments.get(number), new)
        added += len(new)
    return "".join(lines), added, unplaced


def _line_ends(text: str) -> tuple[dict[int, int], set[int]]:
    """The column of each line's comment, and the lines that may end in a comment."""
    comments: dict[int, int] = {}
    open_ends: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.start[1]
        elif token.type in (tokenize.NL, tokenize.NEWLINE):
            open_ends.add(token.start[0])
    return comments, open_ends


def _commented(line: str, comment_at: int | None, codes: set[str]) -> str:
    """`line` with its comment (or a new one) suppressing `codes` too."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if comment_at is None:
        return body.rstrip() + with_codes("", codes) + ending
    return body[:comment_at] + with_codes(body[comment_at:], codes) + ending
