"""A batch run over paths: discover, analyse (cached, parallel), write back."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from autoopt.config import Settings
from autoopt.model import AutooptError, Finding
from autoopt.report.summary import Summary
from autoopt.workspace.cache import ResultCache
from autoopt.workspace.discover import Skips, discover
from autoopt.workspace.notebook import Notebook
from autoopt.workspace.progress import progress_bar
from autoopt.workspace.runner import FileOutcome, analyse, run, settings_for
from autoopt.workspace.source_file import write_atomic
from autoopt.workspace.testfiles import hold_back, test_files

if TYPE_CHECKING:  # loaded by write_verified: `check` runs no tests
    from autoopt.workspace.verify_tests import ProjectTests, Rewritten, Verdict


@dataclass
class Batch:
    """Every file's outcome, the errors met on the way, and the time taken.

    `held_back`: test and benchmark files whose rewrite was left out (`--include-tests`).
    """

    outcomes: list[FileOutcome]
    errors: list[AutooptError]
    started: float = field(default_factory=time.perf_counter)
    written: list[FileOutcome] = field(default_factory=list)
    held_back: list[FileOutcome] = field(default_factory=list)
    tests: Callable[[str], bool] | None = None  # with --include-tests: is a path a test file
    empty: list[str] = field(default_factory=list)  # paths named that hold no source file
    skipped: Skips = field(default_factory=Counter)  # what the walk left out, and why

    @property
    def findings(self) -> list[Finding]:
        """Every finding as reported: a notebook's counted in its cells."""
        return [f for o in self.outcomes if o.result for f in reported(o, o.result.findings)]

    @property
    def warnings(self) -> list[str]:
        """Notebook cells left out because they do not parse (the rest is checked)."""
        return [
            w
            for o in self.outcomes
            if isinstance(o.source, Notebook)
            for w in o.source.warnings(o.display)
        ]

    @property
    def changed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.result is not None and o.result.changed]

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def sources(self) -> dict[str, str]:
        """Display path (`nb.ipynb:cell 3` for a notebook's cells) -> source text, for
        reports that quote lines."""
        texts: dict[str, str] = {}
        for o in self.outcomes:
            if isinstance(o.source, Notebook):
                texts |= o.source.cell_sources(o.display)
            elif o.result is not None:
                texts[o.display] = o.result.source
        return texts


def _reported_error(outcome: FileOutcome) -> AutooptError:
    """The outcome's error, with a line of a notebook counted in its cell."""
    assert outcome.error is not None
    if not isinstance(outcome.source, Notebook):
        return outcome.error
    return outcome.source.cell_map().error(outcome.error)


def reported(outcome: FileOutcome, findings: list[Finding]) -> list[Finding]:
    """`findings` with a notebook's positions counted in its cells."""
    if not isinstance(outcome.source, Notebook):
        return findings
    cells = outcome.source.cell_map()
    return [cells.finding(f) for f in findings]


def collect(
    paths: list[str],
    settings: Settings,
    exclude: list[str] | None = None,
    jobs: int = 0,
    *,
    cache: bool = True,
    progress: bool = False,
) -> Batch:
    """Discover and analyse every file under `paths`; problems become `errors`.

    Test and benchmark files keep their findings but not their rewrites, unless
    `settings.include_tests`; then only their test functions' bodies keep their code.
    """
    started = time.perf_counter()
    found = discover(paths, [*settings.exclude, *(exclude or [])])
    store = ResultCache.load(paths, settings) if cache else None
    tests = test_files(settings, paths) if settings.include_tests else None
    with progress_bar(len(found.files), progress) as advance:
        outcomes = run(found.files, settings, jobs or os.cpu_count() or 1, store, advance, tests)
    if store is not None:
        store.save()
    errors = found.errors + [_reported_error(o) for o in outcomes if o.error is not None]
    held = hold_back(outcomes, settings, paths)
    return Batch(
        outcomes,
        errors,
        started,
        held_back=held,
        tests=tests,
        empty=found.empty,
        skipped=found.skipped,
    )


def collect_text(text: str, display: str, settings: Settings) -> Batch:
    """Analyse one source read from elsewhere (stdin), shown as `display`; no cache, no
    files: a test file is not held back, since nothing is written."""
    started = time.perf_counter()
    answer = analyse(display, text, settings_for(display, settings))
    if isinstance(answer, AutooptError):
        return Batch([FileOutcome(display, error=answer)], [answer], started)
    return Batch([FileOutcome(display, result=answer)], [], started)


def write_changes(batch: Batch) -> None:
    """Write every changed file atomically; refusals join `batch.errors`."""
    for outcome in batch.changed:
        assert outcome.result is not None and outcome.source is not None
        try:
            write_atomic(outcome.source, outcome.result.new_source, outcome.display)
        except AutooptError as exc:
            batch.errors.append(exc)
        else:
            batch.written.append(outcome)


def write_verified(batch: Batch, tests: ProjectTests) -> Verdict:
    """Write the changes, keeping only those `tests` still pass with.

    Raises AutooptError, writing nothing, when the tests fail before any rewrite; a run
    of the tests that cannot finish (an error, Ctrl-C) puts every file back as it was.
    """
    from autoopt.workspace.verify_tests import Verdict, bisect_files, restore, states

    if not tests.passes():
        raise AutooptError(tests.command, "tests fail before rewriting; nothing written")
    write_changes(batch)
    files = [_rewritten(o) for o in batch.written]
    try:
        if not files or tests.passes(states(files, lambda _: True)):
            return Verdict(kept=files)
        return bisect_files(files, tests)
    except BaseException:  # stopped before a verdict: nothing untested stays written
        restore(files)
        batch.written = []
        raise


def _rewritten(outcome: FileOutcome) -> Rewritten:
    from autoopt.workspace.verify_tests import Rewritten

    assert outcome.source is not None and outcome.result is not None
    new = outcome.source.encode(outcome.result.new_source)
    return Rewritten(outcome.display, outcome.source.path, outcome.source.raw, new)


def summarise(batch: Batch, reverted: Sequence[str] = ()) -> Summary:
    """The run's summary table data; after a write, counts what was written."""
    wrote = bool(batch.written)
    changed = [o for o in batch.written if o.display not in reverted] if wrote else batch.changed
    fixes = [f for o in changed if o.result for f in o.result.applied]
    return Summary(
        files=len(batch.outcomes),
        findings=batch.findings,
        fixes=fixes,
        changed=len(changed),
        errors=len(batch.errors),
        seconds=batch.seconds,
        written=wrote,
        reverted=list(reverted),
        held_back=len(batch.held_back),
        skipped=dict(batch.skipped),
    )
