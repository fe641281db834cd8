"""Timing statistics: paired log ratios, their confidence interval, and what it decides.

Runs of the original and a rewrite are taken in pairs (the same round, interleaved), so
what the machine does meanwhile (another job, a busy browser) touches both sides of a
pair alike. The speedup is the geometric mean of the paired ratios, and its 95%
confidence interval comes from Student's t over their logarithms. A view is decided
when that interval lies wholly on one side of the bar `1 + floor`: below it, no gain
worth keeping (and below `1 / (1 + floor)`, slower); above it, faster, where past the
first look (at `MIN_PAIRS`, which every view gets) the lower end of the 99% interval must
clear the bar too. Rounds stop at the first look that decides, and every look is one more
chance for noise to pass for a gain: with looks after every pair, the 95% bound accepted
6-8% of rewrites that change nothing at 30-60% noise (simulated), the 99% bound past the
first look 2-3%. Until then more pairs narrow it; at the end of the budget it is undecided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

UNMEASURED_NOISE = 0.3  # assumed when a single sample cannot show its own spread
MIN_PAIRS = 2  # fewer pairs decide nothing (Student's t makes two pairs count little)
#: Student's t, 97.5% quantile, by degrees of freedom 1..20 (a two-sided 95% interval).
T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
)  # fmt: skip
#: ... its 99.5% quantile (a two-sided 99% interval), the bound a gain must clear.
T995 = (
    63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
    3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
)  # fmt: skip


class Decision(str, Enum):
    """What a view's interval says about the rewrite's speed."""

    FASTER = "faster"
    NO_GAIN = "no gain"
    SLOWER = "slower"
    UNDECIDED = "undecided"


def t_quantile(freedom: int) -> float:
    """The 97.5% quantile of Student's t (within 0.5% past the table)."""
    if freedom <= len(T975):
        return T975[max(freedom, 1) - 1]
    return 1.96 + 2.4 / freedom


def t_quantile_99(freedom: int) -> float:
    """The 99.5% quantile of Student's t (within 0.5% past the table)."""
    if freedom <= len(T995):
        return T995[max(freedom, 1) - 1]
    return 2.576 + 5.4 / freedom


@dataclass(frozen=True)
class Interval:
    """The paired speedup (geometric mean of before/after), its 95% interval, and the
    bound a gain must clear (`sure_low`): the lower end of the 99% interval past
    `MIN_PAIRS` pairs, of the 95% one at `MIN_PAIRS`."""

    ratio: float
    low: float
    high: float
    pairs: int
    sure_low: float = 0.0


def paired_interval(before: list[float], after: list[float], sd_floor: float = 0.0) -> Interval:
    """The interval of before[i] / after[i]; `sd_floor` bounds the log ratios' deviation
    from below. One pair, or none, gets an interval as wide as `UNMEASURED_NOISE` makes it."""
    logs = [math.log(b / a) for b, a in zip(before, after, strict=False) if a > 0 and b > 0]
    if not logs:
        return Interval(1.0, 0.0, math.inf, 0)
    mean = float(np.mean(logs))
    spread = float(np.std(logs, ddof=1)) if len(logs) > 1 else UNMEASURED_NOISE
    error = max(spread, sd_floor) / math.sqrt(len(logs))
    half = t_quantile(len(logs) - 1) * error
    # the first look, at MIN_PAIRS, is every view's (a fixed sample); later ones were chosen
    sure = half if len(logs) <= MIN_PAIRS else t_quantile_99(len(logs) - 1) * error
    low, high, sure_low = math.exp(mean - half), math.exp(mean + half), math.exp(mean - sure)
    return Interval(math.exp(mean), low, high, len(logs), sure_low)


def decision(interval: Interval, floor: float) -> Decision:
    """Where the interval lies against the bar `1 + floor` (and `1 / (1 + floor)`); faster
    only when `sure_low` clears the bar too."""
    if interval.pairs < MIN_PAIRS:
        return Decision.UNDECIDED
    if interval.sure_low > 1 + floor:
        return Decision.FASTER
    if interval.high < 1 / (1 + floor):
        return Decision.SLOWER
    if interval.high < 1 + floor:
        return Decision.NO_GAIN
    return Decision.UNDECIDED


@dataclass
class SpeedView:
    """Before/after timings of one view (whole program or one region) and their verdict.

    `speedup` is the geometric mean of the paired ratios before/after, `low` and `high`
    its 95% confidence interval and `spread` half its width; `noise` is the relative
    standard deviation of one run of the original; `floor` the smallest gain worth
    keeping, so `threshold` (the same) is what the interval must clear. `clock` says what
    was timed: CPU time of the process (`cpu`) or wall time (`wall`).
    """

    scope: str  # "program" or "function <name>"
    before_s: float
    after_s: float
    speedup: float
    spread: float
    low: float
    high: float
    noise: float
    floor: float
    threshold: float
    samples: int
    compiles_before: int = 0  # compilations inside the timed region
    compiles_after: int = 0
    compile_s_before: float | None = None  # one-time compile cost, outside the timed region
    compile_s_after: float | None = None
    clock: str = "wall"
    sure_low: float = 0.0  # the bound a gain must clear (99% past the first look)

    @property
    def interval(self) -> Interval:
        return Interval(self.speedup, self.low, self.high, self.samples, self.sure_low)

    @property
    def decision(self) -> Decision:
        if self.recompiles:
            return Decision.SLOWER
        return decision(self.interval, self.floor)

    @property
    def faster(self) -> bool:
        return self.decision is Decision.FASTER

    @property
    def slower(self) -> bool:
        return self.slower_than(self.floor)

    def slower_than(self, margin: float) -> bool:
        """Slower beyond `margin` with confidence, or recompiling in steady state."""
        enough = self.samples >= MIN_PAIRS and self.high < 1 / (1 + max(margin, self.floor))
        return enough or self.recompiles

    @property
    def leans_slower(self) -> bool:
        """The estimate is slower by more than the floor, decided or not."""
        return self.speedup <= 1 / (1 + self.floor) or self.recompiles

    @property
    def leans_faster(self) -> bool:
        """The estimate is faster than the bar, decided or not."""
        return self.speedup > 1 + self.floor and not self.recompiles

    @property
    def undecided(self) -> bool:
        """The interval still straddles a bar: more pairs may decide it."""
        return self.decision is Decision.UNDECIDED

    @property
    def recompiles(self) -> bool:
        """The rewrite compiles again inside the timed region where the original does not."""
        return self.compiles_after > self.compiles_before

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def median(samples: list[float]) -> float:
    return float(np.median(samples))


def noise(samples: list[float]) -> float:
    """Relative standard deviation of repeated runs; assumed when there is only one."""
    return pooled_noise([samples]) if len(samples) > 1 else UNMEASURED_NOISE


def pooled_noise(groups: list[list[float]]) -> float:
    """Relative standard deviation pooled over the repeats of several variants."""
    squares, freedom = 0.0, 0
    for group in groups:
        if len(group) > 1:
            squares += float(np.sum((np.asarray(group) / np.mean(group) - 1) ** 2))
            freedom += len(group) - 1
    return math.sqrt(squares / freedom) if freedom else 0.0


def speed_view(
    scope: str,
    before: list[float],
    after: list[float],
    floor: float,
    noise_floor: float = 0.0,
    **extra: Any,
) -> SpeedView:
    """Summarise paired samples: before[i] and after[i] were taken in the same round.

    `noise_floor` is a noise level known from elsewhere (e.g. `pooled_noise`); it is
    reported, and half of it bounds the deviation of the paired log ratios from below.
    """
    interval = paired_interval(before, after, sd_floor=noise_floor / 2)
    return SpeedView(
        scope=scope,
        before_s=median(before) if before else 0.0,
        after_s=median(after) if after else 0.0,
        speedup=interval.ratio,
        spread=(interval.high - interval.low) / 2,
        low=interval.low,
        high=interval.high,
        noise=max(noise(before), noise_floor),
        floor=floor,
        threshold=floor,
        samples=interval.pairs,
        sure_low=interval.sure_low,
        **extra,
    )
