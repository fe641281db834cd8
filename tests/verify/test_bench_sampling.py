"""How the steady-state view takes its samples: the clock, and passes per sample (no timing)."""

from __future__ import annotations

import itertools

from autoopt.verify import bench
from autoopt.verify.bench import MIN_SAMPLE_S, NoArguments, Side, resolution


class Counter:
    count = 0


def ticking(step: float, reads_per_tick: int = 1):
    """A clock that advances by `step` every `reads_per_tick` reads."""
    reads = itertools.count()
    return lambda: step * (next(reads) // reads_per_tick)


def test_the_resolution_of_a_coarse_clock_is_its_tick() -> None:
    tick = 1 / 64  # 15.6 ms, exact in binary
    assert resolution(ticking(tick, reads_per_tick=3), probe_s=0.01) == tick


def test_a_fine_clock_is_recognised_at_its_first_steps() -> None:
    assert resolution(ticking(2**-20), probe_s=10.0) == 2**-20  # stops once fine enough


def test_a_sample_repeats_passes_until_it_lasts_the_minimum() -> None:
    calls: list[int] = []
    side = Side(lambda: calls.append(1), [NoArguments()], pass_s=MIN_SAMPLE_S / 4.5)
    bench._sample(side, Counter(), ticking(1.0))
    assert len(calls) == 5  # ceil(4.5) passes, judged by the pass before the sample


def test_a_long_pass_is_a_sample_alone_and_the_first_sample_takes_one_pass() -> None:
    calls: list[int] = []
    long = Side(lambda: calls.append(1), [NoArguments()], pass_s=MIN_SAMPLE_S * 3)
    bench._sample(long, Counter(), ticking(1.0))
    assert len(calls) == 1
    first = Side(lambda: calls.append(1), [NoArguments()])  # no pass seen yet (no warm-up)
    bench._sample(first, Counter(), ticking(1.0))
    assert len(calls) == 2 and first.pass_s > 0


def test_a_sample_is_seconds_per_call_by_the_clock_given() -> None:
    side = Side(lambda: None, [NoArguments(), NoArguments()], pass_s=MIN_SAMPLE_S / 2)  # 2x2
    seconds = bench._sample(side, Counter(), ticking(0.5))
    assert seconds == 0.5 / 2  # every read of the clock ticks once: 0.5 s per pass
