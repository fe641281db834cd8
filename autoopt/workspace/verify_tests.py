"""`--verify-tests CMD`: keep only the rewrites the project's own tests still pass with.

The command runs before the rewrites are written and after. If it passed
before and fails after, the rewritten files are bisected (each probe runs the
command with a subset rewritten) to find the ones that break it; exactly those
are reverted. Every run of the command is a job (`TestJob`): the command, its
timeout, its folder and the bytes each rewritten file holds for that run. The
verification executor runs it (`autoopt.verify.executor`): here, in place, with
the files written first, or on a Ray worker, in a copy of the folder.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from autoopt.model import AutooptError
from autoopt.workspace.source_file import replace_bytes


@dataclass
class TestJob:
    """One run of `command` in `folder`, once each of `files` (absolute paths under
    `folder` on this machine) holds the given bytes."""

    __test__ = False  # not a pytest class

    command: str
    timeout: float
    folder: Path
    files: dict[Path, bytes] = field(default_factory=dict)


def run_in_place(job: TestJob) -> bool:
    """Write the job's files where they are (atomically, where they differ), then run."""
    for path, data in job.files.items():
        if path.read_bytes() != data:
            replace_bytes(path, data, str(path))
    return run_command(job.command, job.timeout, job.folder)


def run_in_copy(job: TestJob, tree: Path) -> bool:
    """Run the job in `tree`, a copy of its folder, with the job's files written into it."""
    for path, data in job.files.items():
        target = tree / path.relative_to(job.folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return run_command(job.command, job.timeout, tree)


def run_command(command: str, timeout: float, cwd: Path) -> bool:
    """Whether the shell-free `command` exits 0 in `cwd` within `timeout` seconds."""
    try:
        done = subprocess.run(
            shlex.split(command),
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return False
    except OSError as exc:
        raise AutooptError(command, f"cannot run: {exc.strerror or exc}") from None
    return done.returncode == 0


@dataclass
class ProjectTests:
    """A shell-free test command with a timeout; `passes()` runs it once, as a job that
    `run` takes (in place on this machine, or an executor's `run_tests`)."""

    command: str
    timeout: float = 600.0
    cwd: Path | None = None
    runs: int = 0
    run: Callable[[TestJob], bool] = run_in_place

    def passes(self, files: dict[Path, bytes] | None = None) -> bool:
        """Whether the command passes with `files` (absolute path -> bytes) in place."""
        self.runs += 1
        folder = (self.cwd or Path.cwd()).resolve()
        return self.run(TestJob(self.command, self.timeout, folder, files or {}))


@dataclass
class Rewritten:
    """A file written by this run: its bytes before and after."""

    display: str
    path: Path
    old: bytes
    new: bytes


@dataclass
class Verdict:
    """What bisection decided: files kept rewritten and files reverted."""

    kept: list[Rewritten] = field(default_factory=list)
    reverted: list[Rewritten] = field(default_factory=list)


def culprits(files: Sequence[Rewritten], passes: Callable[[list[Rewritten]], bool]) -> Verdict:
    """Split `files` into kept and reverted, so that `passes(kept)` holds.

    `passes(subset)` runs the tests with exactly `subset` in its new state; it
    must hold for the empty subset. Each culprit costs about log2(n) probes.
    """
    kept = list(files)
    reverted: list[Rewritten] = []
    while kept and not passes(kept):
        culprit = _one_culprit(kept, passes)
        reverted.append(culprit)
        kept.remove(culprit)
    return Verdict(kept, reverted)


def _one_culprit(files: list[Rewritten], passes: Callable[[list[Rewritten]], bool]) -> Rewritten:
    """A file that, added to the ones known good, makes the tests fail."""
    good: list[Rewritten] = []
    suspects = list(files)
    while len(suspects) > 1:
        half = suspects[: len(suspects) // 2]
        if passes(good + half):
            good += half
            suspects = suspects[len(half) :]
        else:
            suspects = half
    return suspects[0]


def bisect_files(files: Sequence[Rewritten], tests: ProjectTests) -> Verdict:
    """`culprits` with probes that run `tests` with a subset rewritten; then each file on
    disk holds what the verdict says (new if kept, old if reverted)."""

    def passes(subset: list[Rewritten]) -> bool:
        chosen = {id(f) for f in subset}
        return tests.passes(states(files, lambda f: id(f) in chosen))

    verdict = culprits(files, passes)
    for file in files:
        _put(file, file.new if file in verdict.kept else file.old)
    return verdict


def states(files: Sequence[Rewritten], rewritten: Callable[[Rewritten], bool]) -> dict[Path, bytes]:
    """Each file's absolute path and its bytes: new where `rewritten(file)`, else old."""
    return {f.path.resolve(): f.new if rewritten(f) else f.old for f in files}


def restore(files: Sequence[Rewritten]) -> None:
    """Put every file back as it was before this run."""
    for file in files:
        _put(file, file.old)


def _put(file: Rewritten, data: bytes) -> None:
    if file.path.read_bytes() != data:
        replace_bytes(file.path, data, file.display)
