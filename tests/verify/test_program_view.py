"""The whole-program view: more rounds for an undecided speed, within the budget; small gains
kept together."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.verify.compare import Comparison
from autoopt.verify.decide import Thresholds, decide
from autoopt.verify.pipeline import (
    Candidate,
    VerifyOptions,
    _combined,
    _Job,
    _measure_programs,
    _Session,
    _unsettled,
)
from autoopt.verify.report import Row, Verdict
from autoopt.verify.runner import WorkerRun
from autoopt.verify.stats import Decision, speed_view

#: Seconds per run, cycled: the original, a real 1.25x gain in noise, and no gain.
NOISY = [1.0, 1.2, 0.85, 1.1, 0.9, 1.15]  # about 15% run to run
TIMES = {
    "original.py": NOISY,
    "gain.py": [0.8 * t for t in NOISY],
    "same.py": NOISY,
    "slow.py": [1.5 * t for t in NOISY],
}


class ScriptedSession(_Session):
    """Runs nothing: each program's next time comes from `TIMES`."""

    def __init__(self, tmp_path: Path) -> None:
        original = tmp_path / "original.py"
        original.write_text("def main():\n    return 1\n")
        super().__init__(original, "main", VerifyOptions(), tmp_path)
        self.runs: dict[str, int] = {}

    def run(self, program: Path, timeout: float | None = None, **spec: object) -> WorkerRun:
        count = self.runs.get(program.name, 0)
        self.runs[program.name] = count + 1
        seconds = TIMES[program.name][count % len(TIMES[program.name])]
        return WorkerRun("ok", "", {"total_s": seconds, "compile_s": 0.0})

    def compare(self, run: WorkerRun) -> Comparison:
        return Comparison(equal=True)


def _job(name: str) -> _Job:
    candidate = Candidate("AO302", name, 1, "")
    return _Job(candidate, Row("AO302", name, "original.py", 1), Path(name))


def test_undecided_gain_gets_more_rounds_and_is_accepted(tmp_path: Path) -> None:
    session = ScriptedSession(tmp_path)
    gain, same = _job("gain.py"), _job("same.py")
    _measure_programs(session, [gain, same], lambda _message: None, 3, 20)
    # The pooled 15% noise keeps both undecided after three rounds; the same program falls
    # below the 1.10x bar after five, the gain clears it at 99% after six.
    assert session.runs == {"original.py": 6, "gain.py": 6, "same.py": 5}
    assert gain.row.program is not None and gain.row.program.faster
    assert round(gain.row.program.speedup, 2) == 1.25
    assert same.row.program is not None and same.row.program.decision is Decision.NO_GAIN


def test_past_the_budget_only_the_first_rounds_run(tmp_path: Path) -> None:
    session = ScriptedSession(tmp_path)
    session.deadline = 0.0  # the file's budget is spent
    gain = _job("gain.py")
    _measure_programs(session, [gain], lambda _message: None, 3, 20)
    assert session.runs == {"original.py": 3, "gain.py": 3}
    view = gain.row.program
    assert view is not None and view.undecided and not view.faster and not view.slower
    verdict, reason = decide(gain.row, Thresholds())
    assert verdict is Verdict.INCONCLUSIVE and reason.startswith("not decided within the budget")


def test_rounds_pair_each_rewrite_with_the_original_of_the_same_round(tmp_path) -> None:
    session = ScriptedSession(tmp_path)
    gain, same = _job("gain.py"), _job("same.py")
    _measure_programs(session, [gain, same], lambda _message: None, 3, 20)
    rounds = session.samples
    assert set(rounds[Path("same.py")]) == {0, 1, 2, 3, 4}
    assert set(rounds[Path("gain.py")]) == set(rounds[session.path]) == {0, 1, 2, 3, 4, 5}


def _measured(name: str, rule: str, verdict: Verdict, speedup: float) -> _Job:
    job = _job(name)
    job.row.rule, job.row.verdict = rule, verdict
    before = [1.0, 1.02, 0.98, 1.01, 0.99]
    job.row.program = speed_view("program", before, [t / speedup for t in before], 0.10)
    job.candidate.source = f"# {name}\n"
    return job


def test_small_gains_are_kept_together_when_their_combination_is_faster(tmp_path) -> None:
    session = ScriptedSession(tmp_path)
    hoists = [_measured(f"h{i}.py", "AO301", Verdict.NO_GAIN, 1.05) for i in range(3)]
    combo = _measured("all.py", "combined", Verdict.ERROR, 1.3)
    row, kept, source = _combined(session, tmp_path, hoists, combo, lambda c: "", print)
    assert kept == hoists and source == "# all.py\n"
    assert row is combo.row and row.verdict is Verdict.ACCEPTED
    assert all(h.row.verdict is Verdict.ACCEPTED for h in hoists)
    assert "kept with the others: together program: 1.30x" in hoists[0].row.reason


def test_small_gains_are_kept_with_an_accepted_rewrite_when_together_is_faster(tmp_path) -> None:
    session = ScriptedSession(tmp_path)
    donation = _measured("d.py", "AO201", Verdict.ACCEPTED, 1.12)
    hoists = [_measured(f"h{i}.py", "AO301", Verdict.NO_GAIN, 1.05) for i in range(2)]
    combo = _measured("all.py", "combined", Verdict.ERROR, 1.3)
    row, kept, source = _combined(session, tmp_path, [donation, *hoists], combo, None, print)
    assert kept == [donation, *hoists] and source == "# all.py\n" and row is combo.row
    assert donation.row.verdict is Verdict.ACCEPTED and "kept with" not in donation.row.reason
    assert all(h.row.verdict is Verdict.ACCEPTED for h in hoists)


def test_the_best_rewrite_alone_wins_over_a_slower_combination(tmp_path) -> None:
    session = ScriptedSession(tmp_path)
    jit = _measured("j.py", "AO101", Verdict.ACCEPTED, 2.0)
    hoist = _measured("h.py", "AO301", Verdict.NO_GAIN, 1.02)
    combo = _measured("all.py", "combined", Verdict.ERROR, 1.6)
    row, kept, source = _combined(session, tmp_path, [jit, hoist], combo, None, print)
    assert (row, kept, source) == (None, [jit], "# j.py\n")
    assert hoist.row.verdict is Verdict.NO_GAIN


@pytest.mark.parametrize(
    ("members", "combined"),
    [
        ([("AO301", Verdict.NO_GAIN), ("AO301", Verdict.SLOWER)], 1.3),  # one is slower alone
        ([("AO301", Verdict.NO_GAIN), ("AO601", Verdict.NO_GAIN)], 1.3),  # remat is for memory
        ([("AO301", Verdict.NO_GAIN), ("AO301", Verdict.NO_GAIN)], 1.04),  # not faster together
    ],
)
def test_no_combination_is_kept_otherwise(tmp_path, members, combined) -> None:
    session = ScriptedSession(tmp_path)
    jobs = [_measured(f"j{i}.py", rule, v, 1.02) for i, (rule, v) in enumerate(members)]
    combo = _measured("all.py", "combined", Verdict.ERROR, combined)
    row, kept, source = _combined(session, tmp_path, jobs, combo, lambda c: "", print)
    assert (row, kept, source) == (None, [], session.source)


def test_undecided_small_gains_are_kept_together_too(tmp_path) -> None:
    session = ScriptedSession(tmp_path)
    hoists = [_measured(f"h{i}.py", "AO301", Verdict.INCONCLUSIVE, 1.05) for i in range(2)]
    combo = _measured("all.py", "combined", Verdict.ERROR, 1.3)
    row, kept, _ = _combined(session, tmp_path, hoists, combo, lambda c: "", print)
    assert kept == hoists and row is combo.row
    assert all(h.row.verdict is Verdict.ACCEPTED for h in hoists)


def _region_and_program(region: float, program: list[float]) -> _Job:
    """A job whose region was timed at `region` (decided) and whose program at `program`."""
    job = _job("gain.py")
    job.row.function = speed_view("function main", [1.0] * 6, [1 / region] * 6, 0.05)
    job.row.program = speed_view("program", [1.0] * len(program), [1 / p for p in program], 0.1)
    return job


def test_a_region_of_no_gain_does_not_stop_a_program_that_leans_faster() -> None:
    """vmap_items: region 1.00x decided, program 4.7x on two pairs: more program rounds."""
    assert _unsettled(_region_and_program(1.0, [4.0, 5.5]))
    assert not _unsettled(_region_and_program(1.0, [1.05, 0.97]))  # the program agrees


def test_a_faster_region_gets_more_program_rounds_while_the_program_is_no_faster() -> None:
    assert _unsettled(_region_and_program(1.44, [0.9, 1.04]))  # estimate 0.97x
    assert not _unsettled(_region_and_program(1.44, [1.25, 1.0]))  # estimate 1.12x


def _combination(name: str, member_region: float) -> _Job:
    """A combination of two rewrites whose regions were each timed at `member_region`."""
    members = [_job(f"m{i}.py") for i in range(2)]
    for member in members:
        before = [1.0, 1.01, 0.99, 1.0]
        after = [t / member_region for t in before]
        member.row.function = speed_view("function f", before, after, 0.05)
    combo = _job(name)
    combo.members = members
    return combo


def test_a_combination_of_rewrites_faster_alone_stops_at_two_pairs(tmp_path: Path) -> None:
    """Every rewrite was decided faster alone and together they lean faster: two pairs
    (enough to find the combination slower) and no more, undecided or not."""
    session = ScriptedSession(tmp_path)
    combo = _combination("gain.py", 3.0)
    _measure_programs(session, [combo], lambda _message: None, 1, 20)
    assert session.runs == {"original.py": 2, "gain.py": 2}
    assert combo.row.program is not None and combo.row.program.undecided


def test_a_combination_that_leans_slower_is_measured_until_it_decides(tmp_path: Path) -> None:
    session = ScriptedSession(tmp_path)
    combo = _combination("slow.py", 3.0)
    _measure_programs(session, [combo], lambda _message: None, 1, 20)
    assert session.runs["slow.py"] > 2
    assert combo.row.program is not None and combo.row.program.slower


def test_a_combination_with_a_rewrite_not_faster_alone_is_measured_until_it_decides(
    tmp_path: Path,
) -> None:
    """Rewrites of no gain alone are kept together only if the combination decides faster."""
    session = ScriptedSession(tmp_path)
    combo = _combination("gain.py", 1.0)
    _measure_programs(session, [combo], lambda _message: None, 1, 20)
    assert session.runs["gain.py"] > 2
    assert combo.row.program is not None and combo.row.program.faster


def test_a_combination_gets_two_pairs_past_the_budget(tmp_path: Path) -> None:
    """One pair can never show a combination slower; the rewrites alone get no more rounds."""
    session = ScriptedSession(tmp_path)
    session.deadline = 0.0  # the file's budget is spent
    combo, same = _combination("gain.py", 3.0), _job("same.py")
    _measure_programs(session, [same, combo], lambda _message: None, 1, 20)
    assert session.runs == {"original.py": 2, "gain.py": 2, "same.py": 1}
