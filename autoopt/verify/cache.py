"""The verification cache: a file's verdicts, kept so that no rewrite is verified twice.

An entry is one file's report, stored under a key of everything that decides it: the
original text, the text of every candidate rewrite (and of the project modules the file
imports, not `pyproject.toml`), the entry, the options (tolerances, thresholds, repeats,
budgets), the device kind, the jax and jaxlib versions, and autoopt's version and
verification code. Every decision is stored, a noisy `no gain` included (the rewrite was
not shown faster on that device, which is a rejection); what is not a decision is not: a
report whose original failed, a `timeout` or `killed` verdict (the machine's load or
the operating system may have caused them; a lost Ray worker is an error, never a
report), and an inconclusive one (the budget ended before the speed was decided).
Entries are JSON files written atomically under `verify/` in the cache folder (see
`autoopt.workspace.cache.cache_folder`), so machines that share the folder share them.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import fields
from pathlib import Path
from typing import Any

from autoopt import __version__
from autoopt.verify.jobs import MARKER, Environment, FileJob
from autoopt.verify.pipeline import settings_of
from autoopt.verify.report import MemoryView, Row, Verdict, VerifyReport
from autoopt.verify.stats import SpeedView
from autoopt.workspace.cache import prepare

FOLDER = "verify"
#: Maybe the machine, not the rewrite: a run past its timeout or killed, or a speed the
#: budget could not decide (a quieter machine may).
UNSETTLED = frozenset(
    {Verdict.TIMEOUT, Verdict.KILLED, Verdict.INCONCLUSIVE, Verdict.KEPT_INCONCLUSIVE}
)


class VerifyCache:
    """Reports by key under `folder`; `get` and `put` one file's report at a time."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / FOLDER

    def get(self, job: FileJob, where: Environment) -> VerifyReport | None:
        """The stored report of `job` run on `where`, marked cached; None if there is none."""
        try:
            entry = json.loads(self._file(key(job, where)).read_text(encoding="utf-8"))
            report = report_from_json(entry["report"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        report.cached = True
        report.path = job.display
        for row in _rows(report):
            row.path = job.display
        report.kept = [job.candidates[i].finding for i in entry["kept"]]
        return report

    def put(self, job: FileJob, report: VerifyReport) -> bool:
        """Store a decided report (atomically); False when it is not decided or not stored."""
        if not decided(report):
            return False
        kept = {(f.rule, f.span) for f in report.kept}
        indices = [
            i
            for i, c in enumerate(job.candidates)
            if c.finding and (c.finding.rule, c.finding.span) in kept
        ]
        entry = {"report": report.to_json(), "kept": indices}
        target = self._file(key(job, Environment.of(report)))
        try:
            prepare(self.folder)
            target.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, default=str)
            os.replace(tmp, target)
        except OSError:
            return False
        return True

    def _file(self, digest: str) -> Path:
        return self.folder / digest[:2] / f"{digest}.json"


def decided(report: VerifyReport) -> bool:
    """Whether every verdict of the report is a decision about the rewrite on its device,
    not a failure of the machine (a report from the cache is not stored again)."""
    if report.error or report.cached or not report.device:
        return False
    return not any(row.verdict in UNSETTLED for row in _rows(report))


def key(job: FileJob, where: Environment) -> str:
    """The digest of everything a job's verdicts depend on. The project's `pyproject.toml`
    travels with a job only to mark its root: what it configures is in the candidates and
    the options, so an edit elsewhere in it (a dependency, a version) keeps the verdicts."""
    data = {
        "autoopt": [__version__, _code_digest()],
        "name": job.name,
        "source": job.source,
        "modules": {name: text for name, text in job.modules.items() if name != MARKER},
        "candidates": [[c.rule, c.line, c.target, c.source, c.error] for c in job.candidates],
        "options": settings_of(job.options),
        "environment": [where.device, where.jax, where.jaxlib],
    }
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


_CODE: list[str] = []


def _code_digest() -> str:
    """The content of autoopt's verification code: a change of protocol drops the cache."""
    if not _CODE:
        digest = hashlib.sha256()
        for path in sorted(Path(__file__).parent.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        _CODE.append(digest.hexdigest())
    return _CODE[0]


def _rows(report: VerifyReport) -> list[Row]:
    return [*report.rows, *([report.combined] if report.combined else [])]


def report_from_json(data: dict[str, Any]) -> VerifyReport:
    """The inverse of `VerifyReport.to_json` (without `kept`)."""
    names = {f.name for f in fields(VerifyReport)} - {"rows", "combined", "kept"}
    report = VerifyReport(**{k: v for k, v in data.items() if k in names})
    report.rows = [_row(row) for row in data["rows"]]
    report.combined = _row(data["combined"]) if data["combined"] else None
    return report


def _row(data: dict[str, Any]) -> Row:
    names = {f.name for f in fields(Row)}
    row = Row(**{k: v for k, v in data.items() if k in names})
    row.verdict = Verdict(data["verdict"])
    row.program = SpeedView(**data["program"]) if data["program"] else None
    row.function = SpeedView(**data["function"]) if data["function"] else None
    row.memory = MemoryView(**data["memory"])
    return row
