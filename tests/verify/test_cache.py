"""The verification cache and the job a file becomes: what is stored, under which key,
what travels with a job, and that a rerun skips every decided candidate."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from autoopt.config import Settings
from autoopt.frontends.cli import app
from autoopt.verify import Candidate, Row, SpeedView, Verdict, VerifyReport, jobs
from autoopt.verify.cache import VerifyCache, decided, report_from_json
from autoopt.verify.jobs import Environment, FileJob, file_job, project_modules, run_detached

CPU = Environment("cpu", "0.10.2", "0.10.2")

CHAIN_LOOP = """\
import jax.numpy as jnp


def chain(x):
    for _ in range(10):
        x = jnp.sin(x) * 0.5 + jnp.cos(x) * 0.25
    return x


def main():
    x = jnp.linspace(0.0, 1.0, 1000)
    for _ in range(100):
        x = chain(x)
    return x
"""


def view(speedup: float, width: float = 0.2) -> SpeedView:
    """A program view whose interval reaches `width` either side of `speedup`."""
    low, high = speedup / (1 + width), speedup * (1 + width)
    return SpeedView("program", 1.0, 1 / speedup, speedup, (high - low) / 2, low, high, 0.1,
                     0.1, 0.1, 3)  # fmt: skip


def report(*rows: Row, error: str | None = None) -> VerifyReport:
    return VerifyReport("prog.py", "main", list(rows), error=error, device="cpu")


def row(verdict: Verdict, program: SpeedView | None = None) -> Row:
    return Row("AO101", "missing-jit", "prog.py", 4, verdict=verdict, program=program)


def test_only_decided_reports_are_stored() -> None:
    assert decided(report(row(Verdict.ACCEPTED, view(3.0)), row(Verdict.NOT_EQUIVALENT)))
    assert decided(report(row(Verdict.NO_GAIN, view(1.01))))  # inside the floor: no gain
    assert view(1.15).undecided  # past the floor, in the noise: not shown faster, rejected
    assert decided(report(row(Verdict.NO_GAIN, view(1.15))))
    assert not decided(report(row(Verdict.INCONCLUSIVE, view(1.15))))  # the budget ended
    assert not decided(report(row(Verdict.KEPT_INCONCLUSIVE, view(1.15))))
    assert not decided(report(row(Verdict.TIMEOUT)))
    assert not decided(report(row(Verdict.KILLED)))
    assert not decided(report(row(Verdict.ACCEPTED), error="the original program fails"))
    assert not decided(replace(report(row(Verdict.ACCEPTED)), cached=True))


def test_a_report_survives_its_json() -> None:
    original = report(row(Verdict.ACCEPTED, view(3.0)), row(Verdict.CRASHED))
    original.rows[1].notes.append("a note")
    original.combined = row(Verdict.ACCEPTED, view(2.5))
    assert report_from_json(original.to_json()) == original


def job_of(path: Path, rtol: float | None = None) -> FileJob:
    from tests.verify.conftest import FAST

    return file_job(str(path), Settings(), replace(FAST, rtol=rtol))


def test_the_key_covers_rewrites_options_modules_and_device(tmp_path: Path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    job = job_of(path)
    stored = report(row(Verdict.ACCEPTED, view(3.0)))
    stored.jax_version = stored.jaxlib_version = "0.10.2"
    cache = VerifyCache(tmp_path / "cache")
    assert cache.put(job, stored)
    hit = cache.get(job, CPU)
    assert hit is not None and hit.cached
    assert [(r.path, r.verdict, r.program) for r in hit.rows] == [
        (str(path), Verdict.ACCEPTED, view(3.0))
    ]
    assert cache.get(job, replace(CPU, device="NVIDIA H200")) is None
    assert cache.get(job, replace(CPU, jaxlib="0.10.3")) is None
    assert cache.get(job_of(path, rtol=1e-3), CPU) is None
    rewritten = replace(job.candidates[0], source=job.candidates[0].source + "\n")
    assert cache.get(replace(job, candidates=[rewritten]), CPU) is None
    assert cache.get(replace(job, modules={"helper.py": "X = 1\n"}), CPU) is None
    edited = {"pyproject.toml": "[project]\ndependencies = ['jax']\n"}  # configures nothing
    assert cache.get(replace(job, modules=edited), CPU) is not None


def test_a_job_carries_the_project_modules_its_file_imports(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "physics.py").write_text("import helper\nfrom .units import METRE\n")
    (tmp_path / "pkg" / "units.py").write_text("METRE = 1.0\n")
    (tmp_path / "helper.py").write_text("SCALE = 2.0\n")
    (tmp_path / "unused.py").write_text("")
    (tmp_path / "app").mkdir()
    program = tmp_path / "app" / "prog.py"
    program.write_text("import os\nimport numpy\nfrom pkg.physics import step\n")
    assert project_modules(program, tmp_path) == {
        "pyproject.toml": "[project]\nname = 'p'\n",
        "pkg/__init__.py": "",
        "pkg/physics.py": "import helper\nfrom .units import METRE\n",
        "pkg/units.py": "METRE = 1.0\n",
        "helper.py": "SCALE = 2.0\n",
    }


HELPED = """\
import jax.numpy as jnp
from helper import SCALE


def main():
    return jnp.ones(3) * SCALE
"""


def test_a_detached_job_runs_from_what_it_carries(tmp_path: Path, fast) -> None:
    (tmp_path / "helper.py").write_text("SCALE = 2.0\n")
    program = tmp_path / "prog.py"
    program.write_text(HELPED)
    candidate = Candidate("manual", "rewrite", 6, HELPED.replace("* SCALE", "+ SCALE"))
    job = replace(job_of(program), candidates=[candidate])
    (tmp_path / "helper.py").unlink()  # only the job's copy is left
    result = run_detached(job)
    assert result.error is None
    assert [(r.path, r.verdict) for r in result.rows] == [(str(program), Verdict.NOT_EQUIVALENT)]


def rewrite_verify(folder: Path, *flags: str) -> Result:
    result = CliRunner().invoke(app, ["rewrite", str(folder), "--verify", "--no-progress", *flags])
    assert result.exit_code == 1, result.output
    return result


@pytest.fixture
def fast_cli(monkeypatch, fast, tmp_path: Path) -> Path:
    from autoopt.verify import commands

    monkeypatch.setattr(commands, "options_for", lambda *args: fast)
    monkeypatch.setenv("AUTOOPT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "verify"


def test_a_second_run_skips_every_decided_candidate(tmp_path: Path, fast_cli, monkeypatch):
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "prog.py").write_text(CHAIN_LOOP)
    first = rewrite_verify(folder)
    assert "(cached)" not in first.output and len(list(fast_cli.rglob("*.json"))) == 1

    def never(*args, **kwargs):
        raise AssertionError("verified again")

    monkeypatch.setattr(jobs, "verify_candidates", never)
    second = rewrite_verify(folder)
    assert "(cached)" in second.output and "cached: verdicts of an earlier run" in second.output
    assert "1 of 1 from the verification cache" in second.output
    assert "jax.jit" in second.stdout and second.stdout == first.stdout


def test_no_cache_neither_reads_nor_writes(tmp_path: Path, fast_cli) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "prog.py").write_text(CHAIN_LOOP)
    result = rewrite_verify(folder, "--no-cache")
    assert "accepted" in result.output and not fast_cli.exists()


def test_the_ray_executor_without_ray_says_how_to_install_it(tmp_path: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets without Ray
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    install = "Ray is not installed; install it with pip install 'autoopt[ray]'"
    verify = CliRunner().invoke(app, ["verify", str(path), "--executor", "ray", "--no-progress"])
    assert verify.exit_code == 2 and install in verify.output
    args = ["rewrite", str(path), "--verify", "--write", "--executor", "ray", "--no-progress"]
    rewrite = CliRunner().invoke(app, args)
    assert rewrite.exit_code == 2 and install in rewrite.output
    assert path.read_text() == CHAIN_LOOP


def test_gpus_per_job_is_refused_without_the_ray_executor(tmp_path: Path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    result = CliRunner().invoke(app, ["verify", str(path), "--gpus-per-job", "1", "--no-progress"])
    assert result.exit_code == 2
    assert "--gpus-per-job needs the ray executor (--executor ray)" in result.output
