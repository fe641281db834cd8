"""What the CLI's `verify` command, `rewrite --verify` and `--verify-tests` do, kept out of
cli.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.progress import Progress as RichProgress

from autoopt.config import Settings
from autoopt.model import AutooptError
from autoopt.verify.cache import VerifyCache
from autoopt.verify.executor import make_executor, verify_jobs
from autoopt.verify.jobs import file_job
from autoopt.verify.pipeline import Progress, VerifyOptions
from autoopt.verify.render import print_reports, print_summary, write_report
from autoopt.verify.report import VerifyReport
from autoopt.workspace.batch import write_verified
from autoopt.workspace.cache import cache_folder
from autoopt.workspace.verify_tests import ProjectTests, Verdict

if TYPE_CHECKING:
    from autoopt.workspace.batch import Batch
    from autoopt.workspace.runner import FileOutcome


@contextmanager
def _progress(
    console: Console, show: bool, total: int
) -> Iterator[tuple[Progress, Callable[[], None]]]:
    """A bar of files verified with the current step beside it, or nothing: (say, advance)."""
    if not show:
        yield (lambda _: None), (lambda: None)
        return
    columns = (
        SpinnerColumn(),
        TextColumn("verifying"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
    )
    with RichProgress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("", total=total)
        yield (lambda step: bar.update(task, description=step)), (lambda: bar.advance(task))


def verify_paths(
    paths: list[str],
    settings: Settings,
    options: VerifyOptions,
    console: Console,
    *,
    progress: bool = True,
    cache: bool = True,
    tests: Callable[[str], bool] | None = None,
) -> Iterator[tuple[str, VerifyReport | AutooptError]]:
    """Each file's report, or the error that stopped it, as the executor finishes it.

    The jobs are built here; the executor (`[tool.autoopt] executor`, `--executor`)
    runs them, behind the verification cache unless `cache` is off.
    """
    jobs = []
    for path in paths:
        try:
            test_file = tests is not None and tests(path)
            jobs.append(file_job(path, settings.merged(test_file=test_file or None), options))
        except (AutooptError, OSError) as exc:
            yield path, exc if isinstance(exc, AutooptError) else AutooptError(path, str(exc))
    if not jobs:
        return
    executor = make_executor(settings)
    store = VerifyCache(cache_folder(paths)) if cache else None
    try:
        with _progress(console, progress, len(jobs)) as (say, advance):
            for job, outcome in verify_jobs(jobs, executor, store, say):
                advance()
                yield job.display, outcome
    finally:
        executor.close()


def options_for(
    entry: str | None,
    timeout: float,
    rtol: float | None = None,
    atol: float | None = None,
    settings: Settings | None = None,
) -> VerifyOptions:
    """Verification options from the command line (tolerances also come from settings);
    the budget and the inconclusive policy from `settings` (CLI merged over pyproject)."""
    options = VerifyOptions(entry=entry, timeout=timeout, rtol=rtol, atol=atol)
    settings = settings or Settings()
    return replace(
        options,
        budget_s=settings.verify_budget or options.budget_s,
        inconclusive=settings.verify_inconclusive or options.inconclusive,
    )


def verify_command(
    path: str,
    settings: Settings,
    options: VerifyOptions,
    report_path: str | None = None,
    progress: bool = True,
    cache: bool = True,
) -> int:
    """`autoopt verify FILE`: verify every candidate, print the table, maybe write a report."""
    console = Console()
    err = Console(stderr=True)
    try:
        [(_, outcome)] = verify_paths(
            [path], settings, options, err, progress=progress, cache=cache
        )
    except AutooptError as exc:  # no executor
        outcome = exc
    if isinstance(outcome, AutooptError):
        err.print(f"error: {outcome}", markup=False, highlight=False, soft_wrap=True)
        return 2
    print_reports([outcome], console)
    if report_path:
        write_report([outcome], report_path)
    return outcome.exit_code


def verify_outcomes(
    outcomes: list[FileOutcome],
    settings: Settings,
    options: VerifyOptions,
    report_path: str | None = None,
    progress: bool = True,
    cache: bool = True,
    tests: Callable[[str], bool] | None = None,
) -> list[AutooptError]:
    """`rewrite --verify`: keep only verified rewrites in each changed outcome's result.

    Prints the tables and a per-program summary on stderr (stdout carries the diff).
    """
    err = Console(stderr=True)
    changed = {o.display: o.result for o in outcomes if o.result is not None and o.result.changed}
    reports: dict[str, VerifyReport] = {}
    errors: list[AutooptError] = []
    try:
        for path, outcome in verify_paths(
            list(changed), settings, options, err, progress=progress, cache=cache, tests=tests
        ):
            if isinstance(outcome, AutooptError):
                errors.append(outcome)
                continue
            if outcome.error:
                errors.append(AutooptError(path, outcome.error))
            changed[path].new_source, changed[path].applied = outcome.accepted_source, outcome.kept
            reports[path] = outcome
            print_reports([outcome], err)
    except AutooptError as exc:  # no executor to verify with
        errors.append(exc)
    for path, result in changed.items():
        if path not in reports:  # not verified: not rewritten
            result.new_source = result.source
    ordered = [reports[path] for path in changed if path in reports]
    print_summary(ordered, err)
    if report_path:
        write_report(ordered, report_path)
    return errors


def write_tested(batch: Batch, command: str, timeout: float, settings: Settings) -> Verdict:
    """`rewrite --write --verify-tests COMMAND`: write the rewrites, keeping only those the
    project's tests still pass with; each run of the tests is a job for the executor."""
    executor = make_executor(settings)
    try:
        return write_verified(batch, ProjectTests(command, timeout, run=executor.run_tests))
    finally:
        executor.close()
