"""`--verify-tests CMD`: keep only the rewrites the project's own tests still pass with.

The command runs before the rewrites are written and after. If it passed
before and fails after, the rewritten files are bisected (each probe writes a
subset, runs the command) to find the ones that break it; exactly those are
reverted. Every probe runs the command in a subprocess with a timeout.
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
class ProjectTests:
    """A shell-free test command with a timeout; `passes()` runs it once."""

    command: str
    timeout: float = 600.0
    cwd: Path | None = None
    runs: int = 0

    def passes(self) -> bool:
        self.runs += 1
        try:
            done = subprocess.run(
                shlex.split(self.command),
                cwd=self.cwd,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=self.timeout,
                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                check=False,
            )
        except subprocess.TimeoutExpired:
            return False
        except OSError as exc:
            raise AutooptError(self.command, f"cannot run: {exc.strerror or exc}") from None
        return done.returncode == 0


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

    `passes(subset)` puts exactly `subset` in its new state and runs the tests;
    it must hold for the empty subset. Each culprit costs about log2(n) probes.
    """
    kept = list(files)
    reverted: list[Rewritten] = []
    while kept and not passes(kept):
        culprit = _one_culprit(kept, passes)
        reverted.append(culprit)
        kept.remove(culprit)
    if not kept:
        passes([])
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


def bisect_on_disk(files: Sequence[Rewritten], tests: ProjectTests) -> Verdict:
    """`culprits` with probes that write the files and run `tests`."""

    def passes(subset: list[Rewritten]) -> bool:
        chosen = {id(f) for f in subset}
        for f in files:
            _put(f, f.new if id(f) in chosen else f.old)
        return tests.passes()

    return culprits(files, passes)


def _put(file: Rewritten, data: bytes) -> None:
    if file.path.read_bytes() != data:
        replace_bytes(file.path, data, file.display)
