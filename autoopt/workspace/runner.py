"""Run the pipeline over files: one outcome per file, errors kept, never raised.

Files are read in this process (so the cache can answer first); the misses go
to worker processes, largest first, and come back as detached results.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from autoopt.config import Settings
from autoopt.model import AutooptError, Result
from autoopt.workspace import cache as result_cache
from autoopt.workspace.source_file import Source, read_source

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

_PY2 = re.compile(r"^\s*(print\s+[\"'\w]|exec\s+[\"']|except\s+[\w.]+\s*,\s*\w+\s*:)", re.M)


@dataclass
class FileOutcome:
    """What happened to one file: a result, or the error that stopped it."""

    display: str
    source: Source | None = None
    result: Result | None = None
    error: AutooptError | None = None
    cached: bool = False


@dataclass
class _Job:
    index: int
    display: str
    source: Source
    settings: Settings
    key: str | None


Progress = Callable[[FileOutcome], None]


def settings_for(
    display: str, settings: Settings, tests: Callable[[str], bool] | None = None
) -> Settings:
    """`settings` with the `per-file-ignores` whose gitignore-style pattern matches, and
    `test_file` set where `tests` says `display` is a test file."""
    if tests is not None and tests(display):
        settings = settings.merged(test_file=True)
    if not settings.per_file_ignores:
        return settings
    import pathspec

    extra = tuple(
        code
        for pattern, codes in settings.per_file_ignores.items()
        if pathspec.GitIgnoreSpec.from_lines([pattern]).match_file(_posix(display))
        for code in codes
    )
    return settings.merged(ignore=settings.ignore + extra) if extra else settings


def _posix(display: str) -> str:
    path = Path(display).as_posix()
    return path[2:] if path.startswith("./") else path


def optimize_source(code: str, *, path: str, settings: Settings) -> Result:
    """`autoopt.api.optimize_source`, imported on first call: the pipeline (LibCST, the
    analysis, the rules) loads with the first file the result cache cannot answer."""
    return _pipeline()(code, path=path, settings=settings)


def _pipeline() -> Callable[..., Result]:
    """The pipeline's entry, its modules loaded with the cycle collector paused: their
    objects all live on, and its passes over them cost about 5% of the import."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        from autoopt.api import optimize_source as pipeline
    finally:
        if enabled:
            gc.enable()
    return pipeline


def analyse(display: str, text: str, settings: Settings) -> Result | AutooptError:
    """One file's detached result, or the error that stopped it (never raises)."""
    try:
        return optimize_source(text, path=display, settings=settings).detached()
    except AutooptError as exc:
        if exc.message.startswith("syntax error") and _PY2.search(text):
            return AutooptError(exc.path, f"{exc.message} (Python 2 code?)", exc.line)
        return exc
    except RecursionError:
        return AutooptError(display, "too deeply nested to analyse")
    except Exception as exc:
        return AutooptError(display, f"internal error: {type(exc).__name__}: {exc}")


def run(
    files: Sequence[tuple[str, Path]],
    settings: Settings,
    jobs: int = 1,
    cache: result_cache.ResultCache | None = None,
    progress: Progress | None = None,
    tests: Callable[[str], bool] | None = None,
) -> list[FileOutcome]:
    """Outcomes in the order the files were given; `jobs > 1` uses processes. The files
    `tests` names are analysed as test files (`Settings.test_file`)."""
    outcomes: list[FileOutcome | None] = [None] * len(files)

    def finish(index: int, outcome: FileOutcome) -> None:
        outcomes[index] = outcome
        if progress is not None:
            progress(outcome)

    pending = []
    for index, (display, path) in enumerate(files):
        job_or_outcome = _prepare(index, display, path, settings, cache, tests)
        if isinstance(job_or_outcome, FileOutcome):
            finish(index, job_or_outcome)
        else:
            pending.append(job_or_outcome)
    pending.sort(key=lambda job: -len(job.source.text))
    for job, answer in _execute(pending, jobs):
        if cache is not None and job.key is not None:
            cache.put(job.key, answer)
        finish(job.index, _outcome(job, answer))
    return [o for o in outcomes if o is not None]


def _prepare(
    index: int,
    display: str,
    path: Path,
    settings: Settings,
    cache: result_cache.ResultCache | None,
    tests: Callable[[str], bool] | None = None,
) -> _Job | FileOutcome:
    """Read the file and answer from the cache if possible; else a job to run."""
    try:
        source = read_source(path, display)
    except AutooptError as exc:
        return FileOutcome(display, error=exc)
    file_settings = settings_for(display, settings, tests)
    if cache is None:
        return _Job(index, display, source, file_settings, None)
    key = result_cache.key(file_settings, source.raw)
    hit = cache.get(key)
    if hit is None:
        return _Job(index, display, source, file_settings, key)
    if hit.error is not None:
        return FileOutcome(display, source, error=AutooptError(display, *hit.error), cached=True)
    return FileOutcome(display, source, hit.result(display, source.text), cached=True)


def _outcome(job: _Job, answer: Result | AutooptError) -> FileOutcome:
    if isinstance(answer, AutooptError):
        return FileOutcome(job.display, job.source, error=answer)
    return FileOutcome(job.display, job.source, answer)


def _execute(pending: list[_Job], jobs: int) -> Iterator[tuple[_Job, Result | AutooptError]]:
    """(job, answer) pairs as they finish; in this process when one worker is enough."""
    if jobs <= 1 or len(pending) < 2:
        for job in pending:
            yield job, analyse(job.display, job.source.text, job.settings)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=min(jobs, len(pending)))
    try:
        futures = {
            pool.submit(_analyse_remote, job.display, job.source.text, job.settings): job
            for job in pending
        }
        for future in as_completed(futures):
            yield futures[future], _answer(futures[future], future)
    except BaseException:  # Ctrl-C, or the caller gave up: stop now, not after the queue
        _terminate(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Kill the workers (Python 3.14 has `terminate_workers`; older ones keep them private)."""
    if hasattr(pool, "terminate_workers"):
        pool.terminate_workers()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _analyse_remote(
    display: str, text: str, settings: Settings
) -> Result | tuple[str, str, int | None]:
    """`analyse` for a worker: errors travel as (path, message, line) tuples."""
    answer = analyse(display, text, settings)
    if isinstance(answer, AutooptError):
        return answer.path, answer.message, answer.line
    return answer


def _answer(job: _Job, future: Future) -> Result | AutooptError:
    try:
        answer = future.result()
        return AutooptError(*answer) if isinstance(answer, tuple) else answer
    except Exception as exc:  # a worker that died (segfault, out of memory)
        return AutooptError(job.display, f"internal error: worker failed ({type(exc).__name__})")
