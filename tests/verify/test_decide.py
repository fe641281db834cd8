"""Speed statistics and the acceptance rules, on synthetic measurements."""

from __future__ import annotations

import pytest

from autoopt.verify.decide import Thresholds, decide, human_bytes, memory_win, settle
from autoopt.verify.report import MemoryView, Row, Verdict
from autoopt.verify.stats import noise, pooled_noise, speed_view

T = Thresholds()


def view(before: list[float], after: list[float], floor: float = 0.05, **extra):
    return speed_view("function f", before, after, floor, **extra)


def row(rule: str = "AO101", **fields) -> Row:
    r = Row(rule, "name", "prog.py", 3)
    for key, value in fields.items():
        setattr(r, key, value)
    return r


def test_speedup_is_the_paired_ratio() -> None:
    v = view([10.0, 11.0, 9.0], [5.0, 5.5, 4.5])
    assert v.speedup == pytest.approx(2.0) and v.faster and not v.slower
    assert v.low == pytest.approx(2.0) and v.high == pytest.approx(2.0)  # the pairs agree


def test_noise_the_pairs_share_cancels() -> None:
    """The machine slows both sides of a round alike: the pairs still agree on 1.15x."""
    noisy = [1.0, 1.5, 0.6, 1.4, 0.7]
    assert noise(noisy) > 0.2
    v = view(noisy, [x / 1.15 for x in noisy])
    assert v.faster and v.speedup == pytest.approx(1.15)


def test_noise_within_the_pairs_raises_the_bar() -> None:
    v = view([1.0] * 5, [1 / 1.15 / j for j in (1.3, 0.75, 1.25, 0.8, 1.0)])
    assert v.low < 1.05 < v.speedup and not v.faster and v.undecided


def test_the_interval_narrows_with_more_pairs() -> None:
    jitter = [1.0, 1.1, 0.9]
    few = view([1.0] * 3, [j / 1.18 for j in jitter])
    many = view([1.0] * 15, [j / 1.18 for j in jitter] * 5)
    assert few.spread > many.spread
    assert not few.faster and many.faster


def test_floor_applies_when_noise_is_tiny() -> None:
    v = view([1.0] * 5, [0.97] * 5)
    assert v.threshold == 0.05 and not v.faster and not v.slower


def test_tiny_functions_need_a_bigger_win() -> None:
    assert T.floor_for(5e-6) == 0.15 and T.floor_for(1e-3) == 0.05


def test_recompiling_in_steady_state_is_a_slowdown() -> None:
    v = view([1.0] * 5, [0.5] * 5, compiles_before=0, compiles_after=5)
    assert v.recompiles and v.slower
    verdict, reason = decide(row(function=v), T)
    assert verdict is Verdict.SLOWER and "recompiles" in reason


def test_slower_beyond_noise_is_rejected() -> None:
    verdict, reason = decide(row(program=view([1.0] * 3, [1.5] * 3, floor=0.1)), T)
    assert verdict is Verdict.SLOWER and "0.67x" in reason


def test_any_faster_view_accepts_when_none_is_slower() -> None:
    flat = view([1.0] * 3, [1.0] * 3, floor=0.1)
    verdict, _ = decide(row(function=view([1.0] * 5, [0.5] * 5), program=flat), T)
    assert verdict is Verdict.ACCEPTED
    verdict, reason = decide(row(program=flat), T)
    assert verdict is Verdict.NO_GAIN and "no speedup worth keeping" in reason


def test_a_faster_function_is_not_kept_while_the_program_leans_slower() -> None:
    one_run = view([1.0], [2.0], floor=0.1)  # one sample each: 0.50x, inside a 106% bar
    assert one_run.leans_slower and one_run.undecided and not one_run.slower
    verdict, reason = decide(row(function=view([1.0] * 5, [0.5] * 5), program=one_run), T)
    assert verdict is Verdict.NO_GAIN
    assert reason.startswith("the views disagree: function f: 2.00x") and "0.50x" in reason


def test_a_decided_program_overrules_the_region_timed_alone() -> None:
    """A vmapped body timed alone runs slower per call, while the program, which no
    longer loops over it, is faster: the program is what the user runs."""
    region_slower = view([1.0] * 5, [1.6] * 5)
    program_faster = view([1.0] * 3, [0.2] * 3, floor=0.1)
    verdict, reason = decide(row(function=region_slower, program=program_faster), T)
    assert verdict is Verdict.ACCEPTED and "5.00x" in reason
    program_slower = view([1.0] * 3, [1.5] * 3, floor=0.1)
    verdict, _ = decide(row(function=view([1.0] * 5, [0.5] * 5), program=program_slower), T)
    assert verdict is Verdict.SLOWER


def test_undecided_either_way_past_the_floor_only() -> None:
    assert view([1.0], [0.5], floor=0.1).undecided  # 2x on one sample: more runs
    assert not view([1.0] * 3, [0.95] * 3, floor=0.1).undecided  # below the bar: done
    assert not view([1.0] * 5, [2.0] * 5, floor=0.1).undecided  # decided slower


def test_memory_rule_accepted_on_memory_win_within_time_budget() -> None:
    memory = MemoryView(
        compiled_before={"argument": 80, "output": 80, "temp": 0, "alias": 0, "footprint": 160},
        compiled_after={"argument": 80, "output": 80, "temp": 0, "alias": 80, "footprint": 80},
        donated_before=0,
        donated_after=1,
    )
    a_bit_slower = view([1.0] * 5, [1.2] * 5)
    verdict, reason = decide(row("AO201", memory=memory, function=a_bit_slower), T)
    assert verdict is Verdict.ACCEPTED and "donation confirmed" in reason
    much_slower = view([1.0] * 5, [2.0] * 5)
    assert decide(row("AO201", memory=memory, function=much_slower), T)[0] is Verdict.SLOWER
    assert decide(row("AO101", memory=memory, function=a_bit_slower), T)[0] is Verdict.SLOWER


def test_peak_memory_needs_a_real_drop() -> None:
    assert memory_win(MemoryView(peak_rss_before=1000, peak_rss_after=950), T) == ""
    assert "peak RSS" in memory_win(MemoryView(peak_rss_before=1000, peak_rss_after=800), T)


def test_human_bytes() -> None:
    assert human_bytes(512) == "512 B"
    assert human_bytes(1536) == "1.5 KiB"
    assert human_bytes(3 * 1024**3) == "3.0 GiB"


def test_rounds_must_agree_on_the_direction() -> None:
    split = view([1.0] * 5, [0.5, 0.5, 0.5, 1.2, 1.2])
    assert split.speedup > 1.3 and split.low < 1
    assert not split.faster and not split.slower


def test_pooled_noise_uses_every_variant() -> None:
    assert pooled_noise([[1.0, 1.0], [2.0, 2.0]]) == 0.0
    assert 0.15 < pooled_noise([[1.0, 1.5], [2.0, 2.6], [4.0]]) < 0.25
    v = view([1.0, 1.0], [0.8, 0.8], floor=0.1, noise_floor=0.3)
    assert v.noise == 0.3 and not v.faster
    assert view([1.0], [0.5]).noise == 0.3  # one sample: noise assumed, not measured


def test_donation_alone_is_not_a_memory_win() -> None:
    same = {"argument": 80, "output": 80, "temp": 0, "alias": 4, "footprint": 156}
    base = {**same, "alias": 0, "footprint": 160}
    memory = MemoryView(compiled_before=base, compiled_after=same, donated_after=1)
    assert memory_win(memory, T) == ""  # 2.5% smaller: below the 5% floor


def remat(**fields) -> Row:
    """An AO601 row with outputs already equal."""
    return row("AO601", target="grad_step", **fields)


TEMP = {"argument": 100, "output": 100, "alias": 0}
SMALLER = MemoryView(
    compiled_before={**TEMP, "temp": 4000, "footprint": 4200},
    compiled_after={**TEMP, "temp": 1000, "footprint": 1200},
)


def test_remat_is_never_accepted_on_peak_rss_alone() -> None:
    rss_only = MemoryView(peak_rss_before=407 << 20, peak_rss_after=353 << 20)
    verdict, reason = decide(remat(memory=rss_only), T)
    assert verdict is Verdict.NO_GAIN
    assert "no compiled temp memory measured" in reason and "does not count" in reason
    same_temp = MemoryView(
        compiled_before={**TEMP, "temp": 4000, "footprint": 4200},
        compiled_after={**TEMP, "temp": 4000, "footprint": 4200},
        peak_rss_before=407 << 20,
        peak_rss_after=353 << 20,
    )
    verdict, reason = decide(remat(memory=same_temp), T)
    assert verdict is Verdict.NO_GAIN and reason.startswith("no memory saved: compiled temp")


def test_remat_accepted_on_compiled_temp_with_its_time_cost() -> None:
    cost = view([1.0] * 5, [1.1] * 5)
    verdict, reason = decide(remat(memory=SMALLER, function=cost), T)
    assert verdict is Verdict.ACCEPTED
    assert "compiled temp 3.9 KiB -> 1000 B (4.0x less)" in reason
    assert "time after/before: function f 1.10x" in reason
    too_slow = view([1.0] * 5, [2.0] * 5)
    assert decide(remat(memory=SMALLER, function=too_slow), T)[0] is Verdict.SLOWER


def test_remat_falls_back_to_the_device_peak_not_rss() -> None:
    device = MemoryView(device_peak_before=1000, device_peak_after=500)
    verdict, reason = decide(remat(memory=device), T)
    assert verdict is Verdict.ACCEPTED and reason.startswith("device peak 1000 B -> 500 B")


def test_remat_below_the_memory_budget_is_dropped() -> None:
    verdict, reason = decide(remat(memory=SMALLER), T, memory_budget=1 << 20)
    assert verdict is Verdict.NO_GAIN
    assert reason.startswith("below memory budget (3.9 KiB < 1.0 MiB)")
    assert decide(remat(memory=SMALLER), T, memory_budget=4000)[0] is Verdict.ACCEPTED


def test_a_gpu_only_rule_cannot_be_measured_on_cpu() -> None:
    fast = view([10.0, 11.0, 9.0], [5.0, 5.5, 4.5])
    verdict, reason = decide(row("AO702", function=fast), T, platform="cpu")
    assert verdict is Verdict.NO_GAIN and "cannot be measured on cpu" in reason
    verdict, _ = decide(row("AO702", function=fast), T, platform="gpu")
    assert verdict is Verdict.ACCEPTED


@pytest.mark.parametrize(
    ("policy", "safe", "kept"),
    [
        ("keep-safe", True, True),
        ("keep-safe", False, False),  # an unsafe fix needs a measured gain
        ("keep", False, True),
        ("drop", True, False),
    ],
)
def test_what_an_inconclusive_verdict_means(policy: str, safe: bool, kept: bool) -> None:
    verdict = settle(Verdict.INCONCLUSIVE, policy, safe)
    assert verdict.accepted is kept
    assert verdict in (Verdict.INCONCLUSIVE, Verdict.KEPT_INCONCLUSIVE)
    assert settle(Verdict.NO_GAIN, policy, safe) is Verdict.NO_GAIN


def test_undecided_views_are_inconclusive_a_decided_no_gain_is_not() -> None:
    wide = view([1.0] * 4, [1 / 1.2 / j for j in (1.4, 0.7, 1.3, 0.75)], floor=0.1)
    assert wide.undecided
    verdict, reason = decide(row(program=wide), T)
    assert verdict is Verdict.INCONCLUSIVE and "not decided within the budget" in reason
    flat = view([1.0] * 4, [1.0] * 4, floor=0.1)
    near_one = view([1.0] * 4, [1 / 1.04 / j for j in (1.4, 0.7, 1.3, 0.75)], floor=0.1)
    assert near_one.undecided and not near_one.leans_faster
    assert decide(row(program=near_one, function=flat), T)[0] is Verdict.NO_GAIN


def test_a_program_leaning_faster_than_a_region_of_no_gain_is_inconclusive() -> None:
    """Region 1.00x decided, program 4.7x on two pairs: the program is what runs, so the
    region's "no gain" does not settle it (a per-item loop that vmap replaced)."""
    program = view([2.0, 3.0], [2.0 / 4.0, 3.0 / 5.5], floor=0.1)
    assert program.undecided and program.leans_faster
    region = view([1.0] * 6, [1.0] * 6)
    verdict, reason = decide(row(program=program, function=region), T)
    assert verdict is Verdict.INCONCLUSIVE and reason.startswith("the views disagree:")
    slower_region = view([1.0] * 6, [1.5] * 6)
    assert decide(row(program=program, function=slower_region), T)[0] is Verdict.INCONCLUSIVE
    recompiling = view([1.0] * 6, [1.0] * 6, compiles_before=0, compiles_after=6)
    assert decide(row(program=program, function=recompiling), T)[0] is Verdict.SLOWER


def test_an_undecided_region_beside_a_program_leaning_faster_is_not_a_disagreement() -> None:
    program = view([2.0, 3.0], [2.0 / 4.0, 3.0 / 5.5], floor=0.1)
    region = view([1.0] * 3, [1 / 2.7 / j for j in (1.3, 0.75, 1.0)])
    assert region.undecided and program.undecided
    verdict, reason = decide(row(program=program, function=region), T)
    assert verdict is Verdict.INCONCLUSIVE and reason.startswith("not decided within the budget")


def test_a_region_replayed_warm_does_not_hide_recompiles_the_program_shows() -> None:
    """A static argument that changes every call: the region, replayed warm, is faster;
    the program compiles three times as often and leans slower, undecided: slower."""
    region = view([1.0] * 4, [0.4] * 4)
    program = view([1.0, 1.0], [3.0, 1.2], floor=0.10)
    assert region.faster and program.leans_slower and not program.slower
    slow = row(function=region, program=program, compiles_before=5, compiles_after=15)
    verdict, reason = decide(slow, T)
    assert verdict is Verdict.SLOWER and "compiles 15 times against 5" in reason
    same = row(function=region, program=program, compiles_before=5, compiles_after=5)
    assert decide(same, T)[0] is Verdict.NO_GAIN  # no more compiles: the views disagree
