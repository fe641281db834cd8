"""The file's compilation cache: shared by its runs, never hiding a compilation or its cost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoopt.verify import Candidate, VerifyOptions
from autoopt.verify.pipeline import _Job, _memory_counters, _note_memory, _Session
from autoopt.verify.report import Row
from autoopt.verify.runner import WorkerRun, run_worker

# A jitted step, eager operations, and a static argument that changes every call.
PROGRAM = """\
import functools

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x) * 0.5 + x


@functools.partial(jax.jit, static_argnames="n")
def scale(x, n):
    return x * n


def main():
    x = jnp.linspace(0.0, 1.0, 64)
    for n in range(4):
        x = scale(step(x), n) + 1.0
    return x
"""
CHARGE = 5.0  # seconds each compilation is recorded to have cost, in the test


def _run(path: Path, out: Path, cache: Path | None, fresh: bool = False) -> WorkerRun:
    spec: dict[str, Any] = {
        "mode": "run",
        "program": str(path),
        "module": "prog",
        "search_path": [str(path.parent)],
        "entry": None,
        "instrument": True,
        "compilation_cache": str(cache) if cache else None,
    }
    run = run_worker(spec, out, timeout=120, cwd=path.parent, fresh=fresh)
    assert run.ok, run.reason
    return run


def test_cached_compilations_are_counted_and_charged_what_compiling_cost(tmp_path, program) -> None:
    path, cache = program(PROGRAM), tmp_path / "cache"
    uncached = _run(path, tmp_path / "none", None).result
    cold = _run(path, tmp_path / "cold", cache).result
    compiles = uncached["compiles"]
    assert compiles >= 6  # step, four of scale, the eager add
    assert (cold["compiles"], cold["cache_hits"], uncached["cache_hits"]) == (compiles, 0, 0)
    records = list((cache / "times").iterdir())
    assert len(records) == compiles
    for record in records:  # as if each compilation had taken CHARGE seconds
        record.write_text(f"{CHARGE} {CHARGE}")
    warm = _run(path, tmp_path / "warm", cache).result
    assert (warm["compiles"], warm["cache_hits"]) == (compiles, compiles)
    charged = CHARGE * compiles
    for clock in ("cpu_s", "total_s", "compile_s"):
        assert charged < warm[clock] < charged + cold[clock], clock


def test_the_users_own_cache_is_never_used(tmp_path, program, monkeypatch) -> None:
    mine = tmp_path / "users-cache"
    monkeypatch.setenv("JAX_COMPILATION_CACHE_DIR", str(mine))
    path, cache = program(PROGRAM), tmp_path / "cache"
    _run(path, tmp_path / "forked", cache)
    assert not mine.exists() and any((cache / "xla").iterdir())
    at_import = program(PROGRAM.replace("def main():", "step(jnp.ones(3))\n\n\ndef main():"))
    _run(at_import, tmp_path / "fresh", None, fresh=True)  # compiles as jax is imported
    assert not mine.exists()


def _worker(compiles: int, hits: int, rss: int) -> WorkerRun:
    result = {"compiles": compiles, "cache_hits": hits, "peak_rss": rss, "device_peak": None}
    return WorkerRun("ok", "", result)


def test_peak_memory_is_compared_between_runs_that_compiled_nothing(tmp_path, program) -> None:
    path = program(PROGRAM)
    session = _Session(path, "main", VerifyOptions(), tmp_path)
    job = _Job(Candidate("T", "t", 1, PROGRAM), Row("T", "t", str(path), 1))
    job.program = tmp_path / "variant.py"
    _note_memory(session, path, _worker(6, 0, 400))  # the baseline compiled everything
    _note_memory(session, job.program, _worker(6, 5, 390))  # the rewrite compiled its change
    _memory_counters(session, job)
    assert (job.row.memory.peak_rss_before, job.row.memory.peak_rss_after) == (400, 390)
    _note_memory(session, path, _worker(6, 6, 300))
    _memory_counters(session, job)  # a rewrite that never ran warm errs high, never low
    assert (job.row.memory.peak_rss_before, job.row.memory.peak_rss_after) == (300, 390)
    _note_memory(session, job.program, _worker(6, 6, 290))
    _note_memory(session, job.program, _worker(6, 5, 380))  # a later cold run is not taken
    _memory_counters(session, job)
    assert (job.row.memory.peak_rss_before, job.row.memory.peak_rss_after) == (300, 290)
