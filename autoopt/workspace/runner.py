"""Run the pipeline over files: one outcome per file, errors kept, never raised."""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import AutooptError, Result
from autoopt.workspace.source_file import SourceFile, read_source


@dataclass
class FileOutcome:
    """What happened to one file: a result, or the error that stopped it."""

    display: str
    source: SourceFile | None = None
    result: Result | None = None
    error: AutooptError | None = None


def process(display: str, path: Path, settings: Settings) -> FileOutcome:
    """Read and optimise one file; any problem becomes the outcome's error."""
    try:
        source = read_source(path, display)
        result = optimize_source(source.text, path=display, settings=settings)
    except AutooptError as exc:
        return FileOutcome(display, error=exc)
    except RecursionError:
        return FileOutcome(display, error=AutooptError(display, "too deeply nested to analyse"))
    return FileOutcome(display, source, result)


def _process_args(args: tuple[str, Path, Settings]) -> FileOutcome:
    outcome = process(*args)
    if outcome.result is not None:
        outcome.result = outcome.result.detached()
    return outcome


def run(files: Iterable[tuple[str, Path]], settings: Settings, jobs: int = 1) -> list[FileOutcome]:
    """Outcomes in the order the files were given; `jobs > 1` uses processes."""
    work = [(display, path, settings) for display, path in files]
    if jobs <= 1 or len(work) < 2:
        return [_process_args(w) for w in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_process_args, work, chunksize=8))
