"""What verification found: one row per rewrite, and the report for a file."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from autoopt.model import Finding
from autoopt.verify.stats import SpeedView


class Verdict(str, Enum):
    """The outcome of verifying one rewrite; ACCEPTED and KEPT_INCONCLUSIVE ones are kept."""

    ACCEPTED = "accepted"
    NOT_EQUIVALENT = "not equivalent"
    SLOWER = "slower"
    NO_GAIN = "no gain"
    INCONCLUSIVE = "inconclusive"  # equivalent, speed not decided within the budget: dropped
    KEPT_INCONCLUSIVE = "inconclusive, kept"  # ... and kept (`--verify-inconclusive`)
    CRASHED = "crashed"
    TIMEOUT = "timeout"
    KILLED = "killed"
    OUT_OF_MEMORY = "out of memory"
    EXITED = "exited"
    ERROR = "error"

    @property
    def accepted(self) -> bool:
        """Whether the rewrite is kept."""
        return self in (Verdict.ACCEPTED, Verdict.KEPT_INCONCLUSIVE)


# How a worker's status maps to the verdict of the rewrite it ran.
STATUS_VERDICTS = {
    "error": Verdict.CRASHED,
    "oom": Verdict.OUT_OF_MEMORY,
    "exit": Verdict.EXITED,
    "timeout": Verdict.TIMEOUT,
    "signal": Verdict.KILLED,
    "entry_error": Verdict.ERROR,
}


@dataclass
class MemoryView:
    """Memory before and after: compiled buffers, peak RSS, device peak, donation."""

    compiled_before: dict[str, int] | None = None  # argument/output/temp/alias/footprint bytes
    compiled_after: dict[str, int] | None = None
    peak_rss_before: int | None = None
    peak_rss_after: int | None = None
    device_peak_before: int | None = None
    device_peak_after: int | None = None
    donated_before: int | None = None  # input arrays the first call deleted
    donated_after: int | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Row:
    """One verified rewrite (or the combination of all accepted ones)."""

    rule: str
    name: str
    path: str
    line: int
    title: str = ""
    target: str | None = None
    verdict: Verdict = Verdict.ERROR
    reason: str = ""
    max_abs: float | None = None
    max_rel: float | None = None
    program: SpeedView | None = None  # whole entry, fresh processes, compile included
    function: SpeedView | None = None  # the target function in steady state
    memory: MemoryView = field(default_factory=MemoryView)
    transfers_before: int | None = None  # implicit host-to-device transfers in the entry run
    transfers_after: int | None = None
    syncs_before: int | None = None  # host syncs the program's code made in the entry run
    syncs_after: int | None = None
    compiles_before: int | None = None  # compilations in the entry run
    compiles_after: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    @property
    def best_speedup(self) -> float | None:
        views = [v.speedup for v in (self.function, self.program) if v]
        return max(views) if views else None

    def to_json(self) -> dict[str, Any]:
        data = {key: value for key, value in self.__dict__.items() if key not in _NESTED}
        data["verdict"] = self.verdict.value
        data["accepted"] = self.verdict.accepted
        data["program"] = self.program.to_json() if self.program else None
        data["function"] = self.function.to_json() if self.function else None
        data["memory"] = self.memory.to_json()
        return data


_NESTED = ("verdict", "program", "function", "memory")


@dataclass
class VerifyReport:
    """Every rewrite of one file, verified; `accepted_source` keeps only what passed."""

    path: str
    entry: str
    rows: list[Row] = field(default_factory=list)
    combined: Row | None = None
    accepted_source: str = ""
    error: str | None = None
    device: str = ""
    platform: str = ""
    jax_version: str = ""
    jaxlib_version: str = ""
    x64: bool = False
    settings: dict[str, Any] = field(default_factory=dict)  # tolerances and thresholds used
    cached: bool = False  # the verdicts come from the verification cache, not from this run
    timings: dict[str, float] = field(default_factory=dict)  # wall seconds by phase (`Phases`)
    kept: list[Finding] = field(default_factory=list, repr=False)  # fixes in accepted_source

    @property
    def accepted(self) -> list[Row]:
        return [row for row in self.rows if row.verdict.accepted]

    @property
    def exit_code(self) -> int:
        """0: every rewrite verified, 1: some rejected, 2: verification could not run."""
        if self.error:
            return 2
        rows = [*self.rows, *([self.combined] if self.combined else [])]
        return 0 if all(row.verdict.accepted for row in rows) else 1

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k not in ("rows", "combined", "kept")}
        data["rows"] = [row.to_json() for row in self.rows]
        data["combined"] = self.combined.to_json() if self.combined else None
        return data
