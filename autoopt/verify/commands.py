"""What the CLI's `verify` command and `rewrite --verify` do, kept out of cli.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from autoopt.config import Settings
from autoopt.model import AutooptError
from autoopt.verify.pipeline import Progress, VerifyOptions, verify_file
from autoopt.verify.render import print_reports, print_summary, write_report
from autoopt.verify.report import VerifyReport

if TYPE_CHECKING:
    from autoopt.workspace.runner import FileOutcome


@contextmanager
def _status(console: Console, show: bool) -> Iterator[Progress]:
    """A one-line spinner showing the current step, or nothing."""
    if not show:
        yield lambda _: None
        return
    with console.status("verifying") as status:
        yield lambda message: status.update(message)


def options_for(
    entry: str | None, timeout: float, rtol: float | None = None, atol: float | None = None
) -> VerifyOptions:
    """Verification options from the command line (tolerances also come from settings)."""
    return VerifyOptions(entry=entry, timeout=timeout, rtol=rtol, atol=atol)


def verify_command(
    path: str,
    settings: Settings,
    options: VerifyOptions,
    report_path: str | None = None,
    progress: bool = True,
) -> int:
    """`autoopt verify FILE`: verify every candidate, print the table, maybe write a report."""
    console = Console()
    err = Console(stderr=True)
    try:
        with _status(err, progress) as say:
            report = verify_file(path, settings=settings, options=options, progress=say)
    except (AutooptError, OSError) as exc:
        err.print(f"error: {exc}", markup=False, highlight=False)
        return 2
    print_reports([report], console)
    if report_path:
        write_report([report], report_path)
    return report.exit_code


def verify_outcomes(
    outcomes: list[FileOutcome],
    settings: Settings,
    options: VerifyOptions,
    report_path: str | None = None,
    progress: bool = True,
) -> list[AutooptError]:
    """`rewrite --verify`: keep only verified rewrites in each changed outcome's result.

    Prints the tables and a per-program summary on stderr (stdout carries the diff).
    """
    err = Console(stderr=True)
    reports: list[VerifyReport] = []
    errors: list[AutooptError] = []
    for outcome in outcomes:
        result = outcome.result
        if result is None or not result.changed:
            continue
        try:
            with _status(err, progress) as say:
                report = verify_file(
                    Path(outcome.display), settings=settings, options=options, progress=say
                )
        except (AutooptError, OSError) as exc:
            errors.append(
                exc if isinstance(exc, AutooptError) else AutooptError(outcome.display, str(exc))
            )
            result.new_source = result.source
            continue
        if report.error:
            errors.append(AutooptError(outcome.display, report.error))
        result.new_source, result.applied = report.accepted_source, report.kept
        reports.append(report)
        print_reports([report], err)
    print_summary(reports, err)
    if report_path:
        write_report(reports, report_path)
    return errors
