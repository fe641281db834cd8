"""The `ray` executor: file jobs verified on a Ray cluster, one job per slot at a time.

A slot is a long-lived Ray actor asking for one CPU (and `gpus-per-job` GPUs) that owns a
fork server (`autoopt.verify.runner`), so each job's runs are forked, as on this machine,
and the original and its rewrites are timed side by side on the same node. A job carries
the file, the project modules it imports and the options; the actor writes them into a
directory of its own (`autoopt.verify.jobs.run_detached`). A slot whose process dies is
restarted and its job retried, `RETRIES` times; a program that crashes, hangs or runs out
of memory dies in its forked child, which is a verdict, never a retry. Interrupted, the
executor kills its actors (and with them the fork servers and the programs they run).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from autoopt.model import AutooptError
from autoopt.verify.jobs import (
    Environment,
    FileJob,
    Outcome,
    guarded,
    probe_environment,
    run_detached,
)
from autoopt.verify.pipeline import Progress

RETRIES = 2  # restarts of a dead slot, and retries of the job it was running
PACKAGE = Path(__file__).resolve().parents[1]  # autoopt/, shipped to the cluster's workers
INSTALL = "pip install 'autoopt[ray]'"


def import_ray() -> ModuleType:
    """Ray, or an error that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise AutooptError(
            "--executor ray", f"Ray is not installed; install it with {INSTALL}"
        ) from exc
    return ray


class Slot:
    """A Ray actor verifying one job at a time through this process's fork server."""

    def environment(self) -> Environment:
        return probe_environment()

    def verify(self, job: FileJob) -> Outcome:
        return guarded(run_detached, job, lambda _: None)


class RayExecutor:
    """Sends file jobs to the slots of a Ray cluster, started or joined here."""

    def __init__(self, address: str | None = None, gpus_per_job: float | None = None) -> None:
        self.ray = import_ray()
        self.started = not self.ray.is_initialized()
        if self.started:
            self._connect(address)
        self.gpus = gpus_per_job or 0
        self.actors: list[Any] = []

    def _connect(self, address: str | None) -> None:
        """Join the cluster at `address` (else RAY_ADDRESS or a local one), or start one."""
        try:
            self.ray.init(
                address=address,
                logging_level="warning",
                log_to_driver=False,
                runtime_env={"py_modules": [str(PACKAGE)]},
            )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise AutooptError(
                "--executor ray", f"cannot reach the Ray cluster {address or ''}: {exc}"
            ) from exc

    def capacity(self) -> int:
        """How many slots the cluster holds: its CPUs, or its GPUs over `gpus-per-job`."""
        resources = self.ray.cluster_resources()
        count = int(resources.get("CPU", 0))
        if self.gpus:
            count = min(count, int(resources.get("GPU", 0) / self.gpus))
        if count < 1:
            raise AutooptError(
                "--executor ray",
                f"the Ray cluster has no room for a job (1 CPU, {self.gpus:g} GPU): {resources}",
            )
        return count

    def environments(self, jobs: int) -> list[Environment]:
        actors = self._actors(jobs)
        return list(dict.fromkeys(self.ray.get([a.environment.remote() for a in actors])))

    def run(self, jobs: list[FileJob], say: Progress) -> Iterator[tuple[FileJob, Outcome]]:
        """Each job's outcome as it finishes; interrupted, no task is left running."""
        idle = list(self._actors(len(jobs)))
        queue = deque(jobs)
        pending: dict[Any, tuple[FileJob, Any]] = {}
        try:
            while queue or pending:
                while queue and idle:
                    job, actor = queue.popleft(), idle.pop()
                    pending[actor.verify.remote(job)] = (job, actor)
                if not pending:  # every slot is gone
                    yield from ((job, self._lost(job)) for job in queue)
                    return
                say(f"{len(pending)} file(s) verifying on the cluster, {len(queue)} waiting")
                [ref], _ = self.ray.wait(list(pending), num_returns=1)
                job, actor = pending.pop(ref)
                outcome, alive = self._outcome(job, ref)
                if alive:
                    idle.append(actor)
                yield job, outcome
        except BaseException:
            self.close()
            raise

    def _outcome(self, job: FileJob, ref: Any) -> tuple[Outcome, bool]:
        """The job's outcome, and whether its slot still lives."""
        try:
            return self.ray.get(ref), True
        except self.ray.exceptions.RayActorError:
            return self._lost(job), False
        except self.ray.exceptions.RayError as exc:
            return AutooptError(job.display, f"the Ray task failed: {exc}"), True

    def _lost(self, job: FileJob) -> AutooptError:
        return AutooptError(
            job.display, f"the Ray worker verifying it died {RETRIES + 1} times; not verified"
        )

    def _actors(self, jobs: int) -> list[Any]:
        """Start slots up to the cluster's capacity, as many as there are jobs."""
        wanted = min(self.capacity(), max(jobs, 1))
        remote = self.ray.remote(Slot).options(
            num_cpus=1,
            num_gpus=self.gpus,
            max_restarts=RETRIES,
            max_task_retries=RETRIES,
        )
        self.actors += [remote.remote() for _ in range(wanted - len(self.actors))]
        return self.actors

    def close(self) -> None:
        """Kill the slots (their fork servers and programs go with them); stop a Ray
        instance started here."""
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
        self.actors = []
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()
            self.started = False
