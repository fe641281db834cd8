"""Where verification jobs run: this machine (`local`, the default) or a Ray cluster (`ray`).

The local executor runs one job after another, or with `verify-jobs` N several at once,
each in a worker process of its own (started with `spawn`, so it has its own fork server).

An executor takes file jobs (`autoopt.verify.jobs`) and yields each one's report, or the
error that stopped it, as it finishes. `verify_jobs` puts the verification cache in front
of it: a job whose verdicts are stored for a device the executor runs on is not run. It
also runs the test jobs of `--verify-tests` (`autoopt.workspace.verify_tests.TestJob`),
one at a time, each a run of the project's test command.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from typing import Protocol

from autoopt.config import Settings
from autoopt.verify.cache import VerifyCache
from autoopt.verify.jobs import Environment, FileJob, Outcome, guarded, probe_environment, run_job
from autoopt.verify.pipeline import Progress
from autoopt.verify.report import VerifyReport
from autoopt.workspace.verify_tests import TestJob, run_in_place


class Executor(Protocol):
    """Runs file jobs and test jobs; `environments` says where (for the cache), `close`
    lets go."""

    def environments(self, jobs: int) -> list[Environment]: ...

    def run(self, jobs: list[FileJob], say: Progress) -> Iterator[tuple[FileJob, Outcome]]: ...

    def run_tests(self, job: TestJob) -> bool: ...

    def close(self) -> None: ...


class LocalExecutor:
    """Jobs in processes on this machine: one after another, or `jobs` at once."""

    def __init__(self, jobs: int = 1) -> None:
        self._environment: Environment | None = None
        self.jobs = jobs

    def environments(self, jobs: int) -> list[Environment]:
        if self._environment is None:
            self._environment = probe_environment()
        return [self._environment]

    def run(self, jobs: list[FileJob], say: Progress) -> Iterator[tuple[FileJob, Outcome]]:
        if self.jobs > 1 and len(jobs) > 1:
            yield from self._at_once(jobs, say)
            return
        for job in jobs:
            yield job, guarded(run_job, job, say)

    def _at_once(self, jobs: list[FileJob], say: Progress) -> Iterator[tuple[FileJob, Outcome]]:
        """Up to `self.jobs` jobs at a time, each in a worker process, yielded as they end.

        However the loop ends (Ctrl-C, an error), the workers are terminated, and with each
        its fork server and the program it runs (they die with their parent).
        """
        size = min(self.jobs, len(jobs))
        say(f"{size} files at a time")
        pool = multiprocessing.get_context("spawn").Pool(size)
        try:
            for index, outcome in pool.imap_unordered(_run_quietly, enumerate(jobs)):
                yield jobs[index], outcome
            pool.close()
        finally:
            pool.terminate()
            pool.join()

    def run_tests(self, job: TestJob) -> bool:
        """The test command in its folder here, the job's files written in place first."""
        return run_in_place(job)

    def close(self) -> None:
        """Nothing to let go: the fork server ends with this process."""


def _run_quietly(numbered: tuple[int, FileJob]) -> tuple[int, Outcome]:
    """A worker process's job: its number and its outcome (no progress steps cross over)."""
    index, job = numbered
    return index, guarded(run_job, job, _silent)


def _silent(_: str) -> None:
    """The progress callback of a job in a worker process."""


def make_executor(settings: Settings) -> Executor:
    """The executor `settings.executor` names (Ray is imported only for `ray`)."""
    if settings.executor == "ray":
        from autoopt.verify.ray_executor import RayExecutor

        return RayExecutor(settings.ray_address, settings.gpus_per_job)
    return LocalExecutor(settings.verify_jobs or 1)


def verify_jobs(
    jobs: list[FileJob], executor: Executor, cache: VerifyCache | None, say: Progress
) -> Iterator[tuple[FileJob, Outcome]]:
    """Each job's report as it is known: from the cache first, then as the executor
    finishes the others (whose decided reports go into the cache)."""
    empty = [job for job in jobs if not job.candidates]
    todo = [job for job in jobs if job.candidates]
    for job in empty:  # nothing to run: the entry is still checked
        yield job, guarded(run_job, job, say)
    if cache is not None and todo:
        places = executor.environments(len(todo))
        hits = {id(job): hit for job in todo if (hit := _lookup(cache, job, places))}
        todo = [job for job in todo if id(job) not in hits]
        yield from ((job, report) for job in jobs if (report := hits.get(id(job))))
    for job, outcome in executor.run(todo, say) if todo else ():
        if cache is not None and isinstance(outcome, VerifyReport):
            cache.put(job, outcome)
        yield job, outcome


def _lookup(cache: VerifyCache, job: FileJob, places: list[Environment]) -> VerifyReport | None:
    return next(filter(None, (cache.get(job, place) for place in places)), None)
