"""Acceptance rules: when a measured ratio or memory change counts (docs/verification.md)."""

from __future__ import annotations

from dataclasses import dataclass

from autoopt.rules import BY_ID
from autoopt.verify.report import MemoryView, Row, Verdict
from autoopt.verify.stats import Decision, SpeedView

REMAT = "AO601"  # kept only for compiled temp memory (or device peak), never peak RSS
#: Rules whose effect exists only on a GPU: on the CPU backend they change nothing measurable.
GPU_ONLY = frozenset({"AO702"})


@dataclass(frozen=True)
class Thresholds:
    """Floors a ratio must beat on top of the measured noise."""

    function_floor: float = 0.05  # steady state, interleaved in one process
    tiny_floor: float = 0.15  # steady state of functions faster than `tiny_s`
    tiny_s: float = 10e-6
    program_floor: float = 0.10  # whole entry in fresh processes
    memory_time_budget: float = 0.40  # a memory rewrite may cost up to 40% more time
    footprint_floor: float = 0.05  # compiled footprint must fall by 5% (it is exact)
    rss_floor: float = 0.10  # peak RSS or device peak must fall by 10% (they are noisy)

    def floor_for(self, seconds: float) -> float:
        """The steady-state floor for a function taking `seconds` per call."""
        return self.tiny_floor if seconds < self.tiny_s else self.function_floor


def decide(
    row: Row, thresholds: Thresholds, memory_budget: int | None = None, platform: str = ""
) -> tuple[Verdict, str]:
    """The verdict of an equivalent rewrite from its speed views and memory."""
    if row.rule in GPU_ONLY and platform == "cpu":
        return Verdict.NO_GAIN, (
            "cannot be measured on cpu: the rewrite changes how processes share a GPU's"
            " memory, which the CPU backend does not preallocate; verify it on a GPU"
        )
    views = [v for v in (row.function, row.program) if v]
    if row.rule == REMAT:
        return _decide_remat(row, views, thresholds, memory_budget)
    saved = memory_win(row.memory, thresholds)
    if memory_goal(row.rule) and saved and _within_budget(views, thresholds):
        return Verdict.ACCEPTED, "; ".join([saved, *map(describe, views)])
    program = row.program
    if program and (program.slower or program.faster) and row.function:
        # the whole program is what runs: where it decides, a region timed alone that
        # disagrees measured a part the rewrite moved work out of (a vmapped body)
        verdict = Verdict.SLOWER if program.slower else Verdict.ACCEPTED
        return verdict, "; ".join(map(describe, views))
    function = row.function
    if program and function and function.faster and program.leans_slower and _compiles_more(row):
        # a region replays its recorded calls warm: a rewrite that compiles again per call
        # (a static argument that changes) shows its cost in the program only
        return Verdict.SLOWER, (
            f"the program compiles {row.compiles_after} times against {row.compiles_before}, "
            "which the region, replayed warm, does not show; " + describe(program)
        )
    if (
        program
        and program.undecided
        and program.leans_faster
        and function
        and function.decision in (Decision.NO_GAIN, Decision.SLOWER)
        and not function.recompiles
    ):
        # the program is what runs, and it leans faster than the region decided: a body
        # vmapped, or a loop it no longer runs, is not timed as the program runs it
        return Verdict.INCONCLUSIVE, "the views disagree: " + "; ".join(map(describe, views))
    slow = [v for v in views if v.slower]
    if slow:
        return Verdict.SLOWER, "; ".join(map(describe, slow))
    fast = [v for v in views if v.faster]
    leaning = [v for v in views if v.leans_slower]
    if fast and leaning:
        return Verdict.NO_GAIN, "the views disagree: " + "; ".join(map(describe, views))
    if fast:
        return Verdict.ACCEPTED, "; ".join(map(describe, views))
    if not views:
        return Verdict.NO_GAIN, "equivalent, but nothing was timed"
    if all(v.decision is Decision.UNDECIDED for v in views):
        return Verdict.INCONCLUSIVE, "not decided within the budget: " + "; ".join(
            map(describe, views)
        )
    return Verdict.NO_GAIN, "no speedup worth keeping: " + "; ".join(map(describe, views))


def settle(verdict: Verdict, policy: str, safe: bool) -> Verdict:
    """An inconclusive verdict kept or not, by `policy`: `keep-safe` keeps a safe fix,
    `keep` any equivalent one, `drop` none (only measured gains are kept)."""
    if verdict is not Verdict.INCONCLUSIVE:
        return verdict
    if policy == "keep" or (policy == "keep-safe" and safe):
        return Verdict.KEPT_INCONCLUSIVE
    return verdict


def _compiles_more(row: Row) -> bool:
    """The rewritten program compiled more often than the original in its entry run."""
    before, after = row.compiles_before, row.compiles_after
    return before is not None and after is not None and after > before


def memory_goal(rule_id: str) -> bool:
    """Whether the rule's rewrites are kept for the memory they save (`Rule.goal`), or
    judged by it (AO601)."""
    if rule_id == REMAT:
        return True
    rule = BY_ID.get(rule_id)
    return rule is not None and rule.goal == "memory"


def describe(view: SpeedView) -> str:
    """E.g. `function step: 3.20x [3.05-3.36] (9 pairs, cpu time, needs >1.05x)`."""
    if view.recompiles:
        return (
            f"{view.scope}: recompiles in steady state"
            f" ({view.compiles_after} compilations in the timed runs vs {view.compiles_before})"
        )
    sure = ""
    if view.low > 1 + view.threshold and not view.faster:
        sure = f" at 99%: {view.sure_low:.2f}x"  # clears the bar at 95% only: undecided
    return (
        f"{view.scope}: {view.speedup:.2f}x [{view.low:.2f}-{view.high:.2f}]"
        f" ({view.samples} pairs, {view.clock} time, needs >{1 + view.threshold:.2f}x{sure})"
    )


def memory_win(memory: MemoryView, thresholds: Thresholds) -> str:
    """What memory the rewrite saves, in words; empty when it saves none worth keeping."""
    wins = []
    before, after = memory.compiled_before, memory.compiled_after
    if (
        before
        and after
        and after["footprint"] < before["footprint"] * (1 - thresholds.footprint_floor)
    ):
        wins.append(
            f"compiled footprint {human_bytes(before['footprint'])} -> "
            f"{human_bytes(after['footprint'])} (temp {human_bytes(before['temp'])} -> "
            f"{human_bytes(after['temp'])}, aliased {human_bytes(after['alias'])})"
        )
    wins.extend(peak_wins(memory, thresholds))
    if wins and (memory.donated_after or 0) > (memory.donated_before or 0):
        wins.append(f"donation confirmed ({memory.donated_after} input buffers reused)")
    return "; ".join(wins)


def peak_wins(memory: MemoryView, thresholds: Thresholds) -> list[str]:
    """The measured peaks (device, RSS) that fall by `rss_floor`, in words."""
    wins = []
    for label, old, new in (
        ("device peak", memory.device_peak_before, memory.device_peak_after),
        ("peak RSS", memory.peak_rss_before, memory.peak_rss_after),
    ):
        if old and new and new < old * (1 - thresholds.rss_floor):
            wins.append(f"{label} {human_bytes(old)} -> {human_bytes(new)}")
    return wins


def remat_memory(memory: MemoryView) -> tuple[str, int | None, int | None]:
    """What a checkpoint rewrite is judged on: compiled temp bytes, else the device peak."""
    compiled = (memory.compiled_before or {}).get("temp"), (memory.compiled_after or {}).get("temp")
    if None not in compiled:
        return "compiled temp", *compiled
    return "device peak", memory.device_peak_before, memory.device_peak_after


def _decide_remat(
    row: Row, views: list[SpeedView], thresholds: Thresholds, budget: int | None
) -> tuple[Verdict, str]:
    """AO601 is kept only for a measured drop in compiled temp memory (device peak where
    no compiled figure exists) within the time budget; peak RSS alone never counts."""
    label, before, after = remat_memory(row.memory)
    if before is None or after is None:
        reason = (
            "no compiled temp memory measured: no jitted function that reaches the "
            "checkpointed layer was called with concrete arguments"
        )
        old, new = row.memory.peak_rss_before, row.memory.peak_rss_after
        if old and new:
            reason += f"; peak RSS {human_bytes(old)} -> {human_bytes(new)} does not count"
        return Verdict.NO_GAIN, reason
    change = f"{label} {human_bytes(before)} -> {human_bytes(after)}"
    if budget is not None and before < budget:
        return Verdict.NO_GAIN, (
            f"below memory budget ({human_bytes(before)} < {human_bytes(budget)}): {change}"
        )
    floor = thresholds.footprint_floor if label == "compiled temp" else thresholds.rss_floor
    if after >= before * (1 - floor):
        return Verdict.NO_GAIN, f"no memory saved: {change}; {time_cost(views)}"
    slow = [v for v in views if v.slower_than(thresholds.memory_time_budget)]
    if slow:
        return Verdict.SLOWER, f"{change}, but too slow: " + "; ".join(map(describe, slow))
    return Verdict.ACCEPTED, f"{change} ({before / after:.1f}x less); {time_cost(views)}"


def time_cost(views: list[SpeedView]) -> str:
    """E.g. `time after/before: function step 1.08x, program 0.99x`."""
    parts = [f"{v.scope} {1 / v.speedup:.2f}x" for v in views if v.speedup > 0]
    return "time after/before: " + ", ".join(parts) if parts else "time not measured"


def _within_budget(views: list[SpeedView], thresholds: Thresholds) -> bool:
    return not any(v.slower_than(thresholds.memory_time_budget) for v in views)


def human_bytes(count: float | None) -> str:
    """1536 -> '1.5 KiB'."""
    if count is None:
        return "-"
    value, unit = float(count), 0
    while abs(value) >= 1024 and unit < len(_UNITS) - 1:
        value, unit = value / 1024, unit + 1
    return f"{value:.0f} B" if unit == 0 else f"{value:.1f} {_UNITS[unit]}"


_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")
