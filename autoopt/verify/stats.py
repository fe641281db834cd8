"""Timing statistics: medians, noise, and whether a ratio beats them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

UNMEASURED_NOISE = 0.3  # assumed when a single sample cannot show its own spread
MEDIAN_SE = 1.25  # the standard error of a median is about 1.25 sd / sqrt(n)
CONFIDENCE = 2.0  # standard errors a ratio must clear


@dataclass
class SpeedView:
    """Before/after timings of one view (whole program or one function) and their verdict.

    `speedup` is median(before) / median(after); `spread` is the half-width of the
    10-90% range of the per-round ratios, `low` and `high` their quartiles; `noise`
    is the relative standard deviation of one run; `threshold` the larger of the floor
    and two standard errors of the ratio. A verdict needs both: the median ratio
    beyond the threshold, and three rounds in four agreeing on the direction.
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

    @property
    def faster(self) -> bool:
        return self.speedup >= 1 + self.threshold and self.low >= 1 and not self.recompiles

    @property
    def slower(self) -> bool:
        return self.slower_than(self.threshold)

    def slower_than(self, margin: float) -> bool:
        """Slower by more than `margin` (and the noise), or recompiling in steady state."""
        bar = 1 + max(margin, self.threshold)
        return (self.speedup <= 1 / bar and self.high <= 1) or self.recompiles

    @property
    def leans_slower(self) -> bool:
        """The median is slower by more than the floor, decided or not."""
        return self.speedup <= 1 / (1 + self.floor) or self.recompiles

    @property
    def undecided(self) -> bool:
        """The median moves past the floor either way, but not past the noise yet."""
        past_floor = self.speedup >= 1 + self.floor or self.leans_slower
        return past_floor and not self.faster and not self.slower

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
    """Relative standard deviation pooled over the repeats of several variants.

    Runs of different variants share the machine's conditions, so with few repeats
    each, pooling them estimates the run-to-run noise far better.
    """
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
    """Summarise before/after samples taken interleaved; ratios pair them in run order.

    `noise_floor` is a noise level known from elsewhere (e.g. `pooled_noise`).
    """
    ratios = [b / a for b, a in zip(before, after, strict=False) if a > 0] or [1.0]
    p10, low, high, p90 = (float(x) for x in np.percentile(ratios, [10, 25, 75, 90]))
    base, new = median(before), median(after)
    level = max(noise(before), noise_floor)
    margin = CONFIDENCE * MEDIAN_SE * level * math.sqrt(1 / len(before) + 1 / len(after))
    return SpeedView(
        scope=scope,
        before_s=base,
        after_s=new,
        speedup=base / new if new > 0 else float("inf"),
        spread=(p90 - p10) / 2,
        low=low,
        high=high,
        noise=level,
        floor=floor,
        threshold=max(margin, floor),
        samples=len(before),
        **extra,
    )
