"""The paired statistics on deterministic synthetic samples: what they decide, and when."""

from __future__ import annotations

import math

import numpy as np
import pytest

from autoopt.verify.stats import (
    MIN_PAIRS,
    Decision,
    decision,
    paired_interval,
    t_quantile,
    t_quantile_99,
)

FLOOR = 0.05


def drifting(n: int, seed: int = 0) -> list[float]:
    """Times of one side under a load that comes and goes: up to 3x slower in some rounds."""
    rng = np.random.default_rng(seed)
    return list(1.0 + 2.0 * rng.random(n))


def paired(before: list[float], ratio: float, jitter: float, seed: int = 1) -> list[float]:
    """The other side of each round: `ratio` faster, with lognormal jitter of its own."""
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal(len(before))
    return [b / ratio * math.exp(jitter * z) for b, z in zip(before, noise, strict=True)]


def sequential(before: list[float], after: list[float]) -> tuple[Decision, int]:
    """Add pairs one at a time until the interval decides: the decision and the pairs used."""
    for n in range(2, len(before) + 1):
        verdict = decision(paired_interval(before[:n], after[:n]), FLOOR)
        if verdict is not Decision.UNDECIDED:
            return verdict, n
    return Decision.UNDECIDED, len(before)


def test_t_quantiles() -> None:
    assert t_quantile(1) == 12.706 and t_quantile(20) == 2.086
    assert t_quantile(30) == pytest.approx(2.042, abs=0.005)
    assert t_quantile(120) == pytest.approx(1.980, abs=0.005)


def test_a_clear_gain_under_a_drifting_load_is_accepted_in_a_few_pairs() -> None:
    before = drifting(40)
    verdict, pairs = sequential(before, paired(before, 1.3, 0.05))
    assert verdict is Decision.FASTER and pairs <= 5


def test_no_gain_is_rejected_as_no_gain_not_faster() -> None:
    before = drifting(40)
    verdict, _ = sequential(before, paired(before, 1.0, 0.05))
    assert verdict is Decision.NO_GAIN


def test_a_slowdown_is_slower() -> None:
    before = drifting(40)
    verdict, _ = sequential(before, paired(before, 0.7, 0.05))
    assert verdict is Decision.SLOWER


def test_noisy_pairs_need_more_runs_and_end_inconclusive_at_the_budget() -> None:
    before = drifting(40)
    after = paired(before, 1.08, 0.25)  # a small gain in pairs that scatter by 25%
    verdict, pairs = sequential(before[:6], after[:6])  # the budget allows six pairs
    assert verdict is Decision.UNDECIDED and pairs == 6
    interval = paired_interval(before[:6], after[:6])
    assert interval.low < 1 + FLOOR < interval.high  # straddles the bar either way


def test_the_interval_narrows_as_pairs_are_added() -> None:
    before = drifting(40)
    after = paired(before, 1.2, 0.1)
    widths = [paired_interval(before[:n], after[:n]) for n in (3, 10, 40)]
    assert widths[0].high / widths[0].low > widths[1].high / widths[1].low
    assert widths[1].high / widths[1].low > widths[2].high / widths[2].low


def test_too_few_pairs_decide_nothing() -> None:
    interval = paired_interval([1.0] * (MIN_PAIRS - 1), [0.5] * (MIN_PAIRS - 1))
    assert interval.ratio == pytest.approx(2.0) and decision(interval, FLOOR) is Decision.UNDECIDED
    one = paired_interval([1.0], [0.5])
    assert one.low < 1 < one.high  # one pair shows no spread: assumed, wide


def test_a_noise_floor_widens_an_interval_the_pairs_show_as_exact() -> None:
    exact = paired_interval([1.0] * 4, [0.8] * 4)
    floored = paired_interval([1.0] * 4, [0.8] * 4, sd_floor=0.1)
    assert exact.low == pytest.approx(1.25) and floored.low < 1.1 < floored.high


def test_a_gain_must_clear_the_bar_at_99_percent_past_the_first_look() -> None:
    """A 95% interval just above the bar is not enough: rounds stop at the first look that
    decides, so past the first look (two pairs, which every view gets) the bound a gain
    must clear is the 99% one."""
    two = paired_interval([1.0, 1.0], [1 / 3.0, 1 / 3.1])
    assert two.sure_low == two.low and decision(two, FLOOR) is Decision.FASTER
    before = [1.0] * 4
    after = [1 / 1.2 / j for j in (1.08, 0.93, 1.06, 0.94)]
    interval = paired_interval(before, after)
    assert interval.low > 1 + FLOOR > interval.sure_low
    assert decision(interval, FLOOR) is Decision.UNDECIDED
    more = paired_interval(before * 3, after * 3)
    assert more.sure_low > 1 + FLOOR and decision(more, FLOOR) is Decision.FASTER


def test_t_quantiles_at_99_percent() -> None:
    assert t_quantile_99(1) == 63.657 and t_quantile_99(20) == 2.845
    assert t_quantile_99(30) == pytest.approx(2.750, abs=0.01)
    assert t_quantile_99(120) == pytest.approx(2.617, abs=0.01)


@pytest.mark.parametrize("spread", [0.15, 0.3, 0.6])
def test_adding_pairs_until_decided_rarely_accepts_a_rewrite_that_changes_nothing(
    spread: float,
) -> None:
    """Optional stopping: 400 rewrites that change nothing, each given pairs one at a time
    (at most 30) until its interval decides, under lognormal noise of 15-60%. With the 95%
    bound at every look 3.5-8.25% of them came out faster (the commute_product error at 13
    busy loops); with the 99% bound past the first look, 2-3%."""
    faster = 0
    for trial in range(400):
        before = drifting(30, seed=trial)
        faster += sequential(before, paired(before, 1.0, spread, seed=1000 + trial))[0] is (
            Decision.FASTER
        )
    assert faster <= 0.03 * 400


def test_adding_pairs_until_decided_still_accepts_a_real_gain() -> None:
    """A 1.3x gain under 15% noise is accepted nearly every time, in seven pairs at the median."""
    verdicts, pairs = [], []
    for trial in range(200):
        before = drifting(30, seed=trial)
        verdict, used = sequential(before, paired(before, 1.3, 0.15, seed=1000 + trial))
        verdicts.append(verdict)
        pairs.append(used)
    assert verdicts.count(Decision.FASTER) >= 0.97 * 200 and np.median(pairs) <= 7
