"""Timing statistics: medians, noise, and whether a ratio beats them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class SpeedView:
    """Before/after timings of one view (whole program or one function) and their verdict.

    `speedup` is median(before) / median(after); `spread` is the half-width of the
    10-90% range of the per-round ratios, `low` and `high` their quartiles; `noise`
    is the relative half-width of the 10-90% range of the repeated `before` runs, and
    `threshold` the larger of noise and the floor. A verdict needs both: the median
    ratio beyond the threshold, and three rounds in four agreeing on the direction.
    """

    scope: str  # "program" or "function <name>"
    before_s: float
    after_s: float
    speedup: float
    spread: float
    low: float
    high: float
    noise: float
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
    def recompiles(self) -> bool:
        """The rewrite compiles again inside the timed region where the original does not."""
        return self.compiles_after > self.compiles_before

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def median(samples: list[float]) -> float:
    return float(np.median(samples))


UNMEASURED_NOISE = 0.3  # assumed when a single sample cannot show its own spread


def noise(samples: list[float]) -> float:
    """Relative half-width of the 10-90% range: robust to one outlier, honest with few samples."""
    if len(samples) < 2:
        return UNMEASURED_NOISE
    low, high = np.percentile(samples, [10, 90])
    return float((high - low) / 2 / median(samples))


def pooled_noise(groups: list[list[float]]) -> float:
    """Noise from every variant's repeats at once: the 80th percentile of |x / median - 1|.

    Runs of different variants share the machine's conditions, so with few repeats
    each, pooling them estimates the process-to-process noise far better.
    """
    deviations = [abs(x / median(g) - 1) for g in groups if len(g) > 1 for x in g]
    return float(np.percentile(deviations, 80)) if deviations else 0.0


def speed_view(
    scope: str,
    before: list[float],
    after: list[float],
    floor: float,
    noise_floor: float = 0.0,
    **extra: object,
) -> SpeedView:
    """Summarise before/after samples taken interleaved; ratios pair them in run order.

    `noise_floor` is a noise level known from elsewhere (e.g. `pooled_noise`).
    """
    ratios = [b / a for b, a in zip(before, after, strict=False) if a > 0] or [1.0]
    p10, low, high, p90 = (float(x) for x in np.percentile(ratios, [10, 25, 75, 90]))
    base, new = median(before), median(after)
    level = max(noise(before), noise_floor)
    return SpeedView(
        scope=scope,
        before_s=base,
        after_s=new,
        speedup=base / new if new > 0 else float("inf"),
        spread=(p90 - p10) / 2,
        low=low,
        high=high,
        noise=level,
        threshold=max(level, floor),
        samples=len(before),
        **extra,  # type: ignore[arg-type]
    )
