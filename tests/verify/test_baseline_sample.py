"""The capturing baseline stands in for the original's first timing run; the original runs
again only where its own runs must be known: before a rewrite is judged not equivalent,
and for the peak memory a memory rewrite is judged on."""

from __future__ import annotations

from pathlib import Path

import jax.numpy as jnp
import numpy as np

from autoopt.verify import Candidate, Verdict, verify_candidates
from autoopt.verify.pipeline import (
    _Job,
    _measure_programs,
    _memory_counters,
    _note_memory,
    _warm_memory,
)
from autoopt.verify.probes import ArgRecorder
from autoopt.verify.report import Row
from autoopt.verify.runner import WorkerRun, run_worker
from tests.verify.test_program_view import ScriptedSession

QUIET = lambda _message: None  # noqa: E731


def _job(name: str, rule: str = "AO302") -> _Job:
    return _Job(Candidate(rule, name, 1, ""), Row(rule, name, "original.py", 1), Path(name))


def test_the_baseline_is_the_original_s_sample_of_the_first_round(tmp_path: Path) -> None:
    session = ScriptedSession(tmp_path)
    session.first_sample = (0.7, 0.1)
    gain = _job("gain.py")
    _measure_programs(session, [gain], QUIET, 3, 3)
    assert session.runs == {"original.py": 2, "gain.py": 3}  # rounds 1 and 2 only
    assert session.samples[session.path][0] == (0.7, 0.1)
    assert set(session.samples[session.path]) == set(session.samples[Path("gain.py")])


def test_without_a_baseline_sample_the_original_runs_every_round(tmp_path: Path) -> None:
    session = ScriptedSession(tmp_path)
    _measure_programs(session, [_job("gain.py")], QUIET, 3, 3)
    assert session.runs == {"original.py": 3, "gain.py": 3}


def _peaks(compiled: int, rss: int) -> WorkerRun:
    return WorkerRun("ok", "", {"compiles": 6, "cache_hits": 6 - compiled, "peak_rss": rss})


class PeakSession(ScriptedSession):
    """The original's next run compiles nothing and peaks at 300."""

    def run(self, program: Path, timeout: float | None = None, **spec: object) -> WorkerRun:
        self.runs[program.name] = self.runs.get(program.name, 0) + 1
        return _peaks(0, 300)


def _measured_peaks(tmp_path: Path, rule: str, after: int) -> tuple[PeakSession, _Job]:
    session = PeakSession(tmp_path)
    job = _job("rewrite.py", rule)
    _note_memory(session, session.path, _peaks(6, 400))  # the baseline compiled everything
    _note_memory(session, job.program, _peaks(0, after))
    _memory_counters(session, job)
    return session, job


def test_a_memory_rewrite_is_judged_against_an_original_that_compiled_nothing(tmp_path) -> None:
    session, job = _measured_peaks(tmp_path, "AO201", 310)  # 400 -> 310 would be a win
    _warm_memory(session, [job], QUIET)
    assert session.runs == {"original.py": 1}
    assert (job.row.memory.peak_rss_before, job.row.memory.peak_rss_after) == (300, 310)


def test_no_warm_run_where_the_baseline_s_peak_changes_nothing(tmp_path) -> None:
    session, memory = _measured_peaks(tmp_path, "AO201", 390)  # no win even against 400
    _warm_memory(session, [memory], QUIET)
    session_b, speed = _measured_peaks(tmp_path, "AO302", 310)  # memory decides nothing
    _warm_memory(session_b, [speed], QUIET)
    assert session.runs == session_b.runs == {}


PRINTS_TIME = """\
import time

import jax.numpy as jnp


def main():
    start = time.perf_counter()
    x = jnp.linspace(0.0, 1.0, 1000)
    for _ in range(20):
        x = jnp.sin(x) * 0.5
    x.block_until_ready()
    print(f"took {time.perf_counter() - start:.6f} s")
    return x
"""


def test_printed_timings_found_by_a_second_run_of_the_original(program, fast) -> None:
    """The baseline alone cannot tell a printed timing from a printed result: before the
    rewrite is judged, the original runs again and its timing is seen to vary."""
    path = program(PRINTS_TIME)
    harmless = Candidate("T", "harmless", 9, PRINTS_TIME.replace("* 0.5", "* 0.5 + 0.0"))
    changed = Candidate("T", "changed", 9, PRINTS_TIME.replace('f"took', 'f"took:'))
    rows = verify_candidates(path, [harmless, changed], fast).rows
    assert rows[0].verdict is not Verdict.NOT_EQUIVALENT, rows[0].reason
    assert rows[1].verdict is Verdict.NOT_EQUIVALENT
    assert rows[1].reason.startswith("printed output differs: line 1:")


def test_saving_the_captured_arguments_is_timed_apart(tmp_path: Path) -> None:
    recorder = ArgRecorder(lambda x, y: x.sum() + y.sum(), tmp_path, max_calls=2)
    big = np.ones((1000, 1000), np.float32)
    for _ in range(3):
        recorder(jnp.ones(3), big)
    assert recorder.saved == 2 and sorted(p.name for p in tmp_path.iterdir())[0] == "0.npz"
    assert recorder.wall_s > 0 and recorder.cpu_s >= 0


SAVES_A_BIG_ARGUMENT = """\
import numpy as np


def total(x):
    return float(x.sum())


def main():
    return total(np.ones((2000, 2000), np.float32))
"""


def test_a_capturing_run_reports_its_saving_time_apart(tmp_path, program) -> None:
    path = program(SAVES_A_BIG_ARGUMENT)
    spec = {
        "mode": "run",
        "program": str(path),
        "module": "prog",
        "search_path": [str(path.parent)],
        "entry": None,
        "capture": {"targets": ["total"], "dir": str(tmp_path / "cap"), "max_calls": 1},
    }
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent)
    assert run.ok, run.reason
    assert run.result["captured"]["total"] == {"calls": 1, "error": ""}
    assert run.result["capture_s"] > 0 and run.result["total_s"] > 0
