"""The end-of-run summary: findings and fixes per rule, files, errors, seconds."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autoopt.model import Finding

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

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

    def table(self) -> Table:
        from rich.table import Table

        table = Table(title="autoopt summary", title_justify="left")
        table.add_column("rule")
        table.add_column("findings", justify="right")
        table.add_column("fixes", justify="right")
        found = Counter(f.rule for f in self.findings)
        fixed = Counter(f.rule for f in self.fixes)
        for rule in sorted(found):
            table.add_row(rule, str(found[rule]), str(fixed[rule]))
        table.add_section()
        table.add_row("total", str(len(self.findings)), str(len(self.fixes)), style="bold")
        return table

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


def print_summary(summary: Summary, console: Console | None = None) -> None:
    """Print the table on stderr (or `console`); rich loads only to draw a table.

    No text here names an emoji: without emoji codes rich skips loading them (4 ms).
    """
    if console is None and not summary.findings:
        print(summary.caption(), file=sys.stderr)
        return
    from rich.console import Console

    console = console or Console(stderr=True, emoji=False)
    if summary.findings:
        console.print(summary.table())
    console.print(summary.caption(), highlight=False, soft_wrap=True)
