"""The end-of-run summary: findings and fixes per rule, files, errors, seconds.

The table is drawn here, in the box characters rich draws by default, rather than by
rich: loading rich took about a sixth of what `import libcst` takes, in every
`autoopt check` that finds something.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autoopt.model import Finding

if TYPE_CHECKING:
    from rich.console import Console

HELD_BACK = "test/benchmark files not rewritten (--include-tests rewrites them)"


@dataclass
class Summary:
    """Counts for one run; `fixes` counts the fixes applied (or that would be)."""

    files: int
    findings: list[Finding]
    fixes: list[Finding]
    changed: int
    errors: int
    seconds: float
    written: bool = False
    reverted: list[str] = field(default_factory=list)
    held_back: int = 0  # test and benchmark files with rewrites left out
    # (why, is a folder) -> count: the source files and folders a walk left out
    skipped: dict[tuple[str, bool], int] = field(default_factory=dict)

    def table(self) -> list[str]:
        """Findings and fixes per rule, then the totals, as lines of a boxed table."""
        found = Counter(f.rule for f in self.findings)
        fixed = Counter(f.rule for f in self.fixes)
        rows = [[rule, str(found[rule]), str(fixed[rule])] for rule in sorted(found)]
        total = ["total", str(len(self.findings)), str(len(self.fixes))]
        return _boxed(["rule", "findings", "fixes"], rows, total, "autoopt summary")

    def caption(self) -> str:
        verb = "rewritten" if self.written else "to rewrite"
        parts = [
            f"{self.files} files scanned",
            f"{self.changed} files {verb}",
            f"{self.errors} errors",
            f"{self.seconds:.2f} s",
        ]
        if self.reverted:
            parts.insert(2, f"{len(self.reverted)} reverted by --verify-tests")
        if self.held_back:
            parts.insert(2, f"{self.held_back} {HELD_BACK}")
        return ", ".join(parts) + "; " + self.skips()

    def skips(self) -> str:
        """`skipped: 15 files ignored by .gitignore, 1 folder excluded`, or `nothing skipped`."""
        counts = [
            f"{n} {_plural('folder' if folder else 'file', n)} {why}"
            for (why, folder), n in sorted(self.skipped.items())
            if n
        ]
        return "skipped: " + ", ".join(counts) if counts else "nothing skipped"


def _plural(noun: str, n: int) -> str:
    return noun if n == 1 else noun + "s"


def _boxed(head: list[str], rows: list[list[str]], total: list[str], title: str) -> list[str]:
    """The title, then a table with a heavy header and the total row apart; the first
    column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in (head, *rows, total)) for i in range(len(head))]

    def line(cells: list[str], bar: str) -> str:
        text = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return bar + bar.join(f" {t} " for t in text) + bar

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    return [
        title.ljust(sum(widths) + 3 * len(widths) + 1),
        rule("┏", "━", "┳", "┓"),
        line(head, "┃"),
        rule("┡", "━", "╇", "┩"),
        *(line(row, "│") for row in rows),
        rule("├", "─", "┼", "┤"),
        line(total, "│"),
        rule("└", "─", "┴", "┘"),
    ]


def print_summary(summary: Summary, console: Console | None = None) -> None:
    """Print the table, when something was found, and the caption on stderr (or to
    `console`, as plain text)."""
    lines = [*(summary.table() if summary.findings else []), summary.caption()]
    for text in lines:
        if console is None:
            print(text, file=sys.stderr)
        else:
            console.print(text, highlight=False, markup=False, emoji=False, soft_wrap=True)
