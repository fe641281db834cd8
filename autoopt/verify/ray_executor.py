"""The `ray` executor: file jobs verified on a Ray cluster, one job per slot at a time.

A slot is a long-lived Ray actor asking for one CPU (and `gpus-per-job` GPUs) that owns a
fork server (`autoopt.verify.runner`), so each job's runs are forked, as on this machine,
and the original and its rewrites are timed side by side on the same node. A job carries
the file, the project modules it imports and the options; the actor writes them into a
directory of its own (`autoopt.verify.jobs.run_detached`). A slot whose process dies is
restarted and its job retried, `RETRIES` times; a program that crashes, hangs or runs out
of memory dies in its forked child, which is a verdict, never a retry. Interrupted, the
executor kills its actors (and with them the fork servers and the programs they run).

A test job of `--verify-tests` is a Ray task, not a slot's: its folder travels as a zip
in Ray's object store, packed once per run (`pack`: git's view of the working tree, else
every file outside hidden folders); the task unpacks it, writes the job's files into the
copy and runs the command there, so the sender's files are touched only once the verdict
is known.
"""

from __future__ import annotations

import io
import os
import subprocess
import tempfile
import zipfile
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
from autoopt.workspace.verify_tests import TestJob, run_in_copy

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


def slot_options(gpus: float) -> dict[str, Any]:
    """A slot actor's Ray options: one CPU and `gpus` GPUs, restarted (and its job
    retried) `RETRIES` times."""
    return {"num_cpus": 1, "num_gpus": gpus, "max_restarts": RETRIES, "max_task_retries": RETRIES}


def suite_options(gpus: float) -> dict[str, Any]:
    """A test job's Ray task options (`--verify-tests`): a slot's resources, retried
    `RETRIES` times if its worker dies."""
    return {"num_cpus": 1, "num_gpus": gpus, "max_retries": RETRIES}


def pack(folder: Path) -> bytes:
    """`folder` as a zip of the files `tree_files` names, with their permissions."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in tree_files(folder):
            archive.write(folder / name, name)
    return buffer.getvalue()


def tree_files(folder: Path) -> list[str]:
    """The files of `folder` a test run needs: in a git work tree, the tracked and the
    untracked ones less what `.gitignore` names; else every file outside hidden folders
    and `__pycache__`."""
    command = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    try:
        listed = subprocess.run(command, cwd=folder, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        names = [p.relative_to(folder) for p in folder.rglob("*") if p.is_file()]
        return sorted(
            n.as_posix() for n in names if not any(_skipped(part) for part in n.parts[:-1])
        )
    return [name for name in listed.decode().split("\0") if (folder / name).is_file()]


def _skipped(folder: str) -> bool:
    return folder.startswith(".") or folder == "__pycache__"


def run_shipped_tests(job: TestJob, tree: bytes) -> bool:
    """On a worker: the job in a folder of its own, unpacked from `tree`."""
    with tempfile.TemporaryDirectory(prefix="autoopt-tests-") as folder:
        with zipfile.ZipFile(io.BytesIO(tree)) as archive:
            for info in archive.infolist():
                os.chmod(archive.extract(info, folder), info.external_attr >> 16 & 0o7777 or 0o644)
        return run_in_copy(job, Path(folder))


def _inside(job: TestJob) -> None:
    """Raise unless every file of the job lies in its folder (only the folder travels)."""
    outside = [str(path) for path in job.files if not path.is_relative_to(job.folder)]
    if outside:
        raise AutooptError(
            "--verify-tests",
            f"the Ray executor runs the tests in a copy of {job.folder};"
            f" {', '.join(outside)} is outside it",
        )


def _task_error(exc: Exception) -> AutooptError:
    """The error a failed test task stands for: the job's own (a command that cannot run),
    else the task's."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, AutooptError):
        return cause
    return AutooptError("--verify-tests", f"the Ray task running the tests failed: {exc}")


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
        self.trees: dict[Path, Any] = {}  # a test job's folder, packed in the object store

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

    def run_tests(self, job: TestJob) -> bool:
        """The test command in a copy of the job's folder on the cluster (cancelled if
        interrupted); a task that failed `RETRIES + 1` times is an error."""
        _inside(job)
        self.capacity()
        if job.folder not in self.trees:  # the folder as it is at its first test run
            self.trees[job.folder] = self.ray.put(pack(job.folder))
        task = self.ray.remote(run_shipped_tests).options(**suite_options(self.gpus))
        ref = task.remote(job, self.trees[job.folder])
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayError as exc:
            raise _task_error(exc) from exc
        except BaseException:
            self.ray.cancel(ref, force=True)
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
        remote = self.ray.remote(Slot).options(**slot_options(self.gpus))
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
