"""Where verification jobs run: this machine (`local`, the default) or a Ray cluster (`ray`).

An executor takes file jobs (`autoopt.verify.jobs`) and yields each one's report, or the
error that stopped it, as it finishes. `verify_jobs` puts the verification cache in front
of it: a job whose verdicts are stored for a device the executor runs on is not run. It
also runs the test jobs of `--verify-tests` (`autoopt.workspace.verify_tests.TestJob`),
one at a time, each a run of the project's test command.
"""

from __future__ import annotations

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
    """Today's verification: one job after another, in processes on this machine."""

    def __init__(self) -> None:
        self._environment: Environment | None = None

    def environments(self, jobs: int) -> list[Environment]:
        if self._environment is None:
            self._environment = probe_environment()
        return [self._environment]

    def run(self, jobs: list[FileJob], say: Progress) -> Iterator[tuple[FileJob, Outcome]]:
        for job in jobs:
            yield job, guarded(run_job, job, say)

    def run_tests(self, job: TestJob) -> bool:
        """The test command in its folder here, the job's files written in place first."""
        return run_in_place(job)

    def close(self) -> None:
        """Nothing to let go: the fork server ends with this process."""


def make_executor(settings: Settings) -> Executor:
    """The executor `settings.executor` names (Ray is imported only for `ray`)."""
    if settings.executor == "ray":
        from autoopt.verify.ray_executor import RayExecutor

        return RayExecutor(settings.ray_address, settings.gpus_per_job)
    return LocalExecutor()


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
