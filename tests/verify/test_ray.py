"""The `ray` executor on a real local Ray instance (two CPUs, so two slots): the same
verdicts as the local executor, a killed worker retried, a program's own exit a verdict,
Ctrl-C leaving nothing changed and nothing running, `--verify-tests` runs as Ray tasks,
and `--gpus-per-job` asking the cluster for GPUs."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autoopt.config import Settings
from autoopt.frontends.cli import app
from autoopt.verify import Candidate, Verdict, VerifyReport
from autoopt.verify.jobs import FileJob, file_job
from autoopt.verify.ray_executor import (
    RETRIES,
    RayExecutor,
    slot_options,
    suite_options,
    tree_files,
)
from autoopt.workspace import runner
from tests.verify.test_cache import CHAIN_LOOP
from tests.workspace.conftest import make_tree, snapshot
from tests.workspace.test_verify_tests import PYTEST, REPO, planted

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[2]
# Quick to verify, each with a verdict far from its bar on the local executor: two slots
# on two cores time each other's runs, so a 1.4x gain can sink into their noise there.
AGREEMENT = (
    "heat_diffusion.py",
    "kalman_filter.py",
    "neg_carry_loop.py",
    "neg_early_stopping.py",
    "neg_loop_variant_host.py",
    "newton_solver.py",
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray instance for the module; its address, for other drivers to join."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning", log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def verdicts(folder: Path, executor: str, report: Path) -> dict[tuple[str, int], dict]:
    """`rewrite FOLDER --verify --executor EXECUTOR`: each row of the JSON report."""
    args = ["rewrite", str(folder), "--verify", "--jobs", "1", "--no-progress", "--no-cache"]
    args.append("--report")  # one analysis process: this one has imported jax, never fork it
    result = CliRunner().invoke(app, [*args, str(report), "--executor", executor])
    assert result.exit_code == 1, result.output
    rows = {}
    for file in json.loads(report.read_text())["reports"]:
        for row in [*file["rows"], *([file["combined"]] if file["combined"] else [])]:
            rows[(Path(row["path"]).name + ":" + row["rule"], row["line"])] = row
    return rows


def noisy(row: dict) -> bool:
    """A verdict the local executor calls undecided or noisy: some view's ratio is not
    beyond twice its bar (where it would stop early), or inside the noise past the floor."""
    for view in (row["program"], row["function"]):
        if view:
            bar = (1 + view["threshold"]) ** 2
            if 1 / bar < view["speedup"] < bar:
                return True
    return False


def undecided(row: dict) -> bool:
    """Some view's paired interval holds an edge where the decision changes (`1 +
    threshold`, faster; its inverse, slower): another run may decide either way."""
    for view in (row["program"], row["function"]):
        if view:
            bar = 1 + view["threshold"]
            if any(view["low"] < edge < view["high"] for edge in (bar, 1 / bar)):
                return True
    return False


def test_ray_keeps_exactly_the_rewrites_local_keeps(cluster, tmp_path, fast, monkeypatch):
    from autoopt.verify import commands

    quick = replace(fast, max_repeats=2, budget_s=5.0, bench_budget_s=3.0)
    monkeypatch.setattr(commands, "options_for", lambda *args: quick)
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in AGREEMENT:
        shutil.copy(ROOT / "corpus" / name, folder / name)
    local = verdicts(folder, "local", tmp_path / "local.json")
    remote = verdicts(folder, "ray", tmp_path / "ray.json")
    assert remote.keys() == local.keys()
    assert {key[0].split(":")[0] for key in local} == set(AGREEMENT)
    differ = [key for key in local if local[key]["verdict"] != remote[key]["verdict"]]
    clear = [
        k for k in differ if not (noisy(local[k]) or undecided(local[k]) or undecided(remote[k]))
    ]
    assert clear == []
    assert any(not noisy(row) and row["accepted"] for row in local.values())


SLOW_START = """\
import os
import time

import jax.numpy as jnp

MARKS = {marks!r}


def scale(x):
    for _ in range(5):
        x = jnp.sin(x) * 0.5
    return x


def main():
    with open(MARKS, "a") as marks:
        marks.write(f"{{os.getppid()}}\\n")
    time.sleep(0.5)
    x = jnp.ones(8)
    for _ in range(20):
        x = scale(x)
    return x
"""


def job_for(tmp_path: Path, source: str, options) -> FileJob:
    program = tmp_path / "prog.py"
    program.write_text(source)
    return file_job(str(program), Settings(), options)


def parent_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("PPid:"):
            return int(line.split()[1])
    raise AssertionError(f"no parent of {pid}")


def kill_first_slot(marks: Path, killed: list[int]) -> None:
    """Wait for the first program run, then kill the Ray actor whose fork server runs it."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not marks.exists():
        time.sleep(0.05)
    server = int(marks.read_text().split()[0])
    killed.append(parent_of(server))
    os.kill(killed[0], signal.SIGKILL)


def test_a_worker_killed_mid_job_is_retried(cluster, tmp_path, fast) -> None:
    marks = tmp_path / "marks.txt"
    job = job_for(tmp_path, SLOW_START.format(marks=str(marks)), fast)
    killed: list[int] = []
    killer = threading.Thread(target=kill_first_slot, args=(marks, killed))
    killer.start()
    executor = RayExecutor()
    try:
        [(_, outcome)] = list(executor.run([job], lambda _: None))
    finally:
        executor.close()
        killer.join()
    assert isinstance(outcome, VerifyReport), outcome
    rules = [row.rule for row in outcome.rows]  # AO103: both loops of one call, as scans
    assert outcome.error is None and rules == ["AO101", "AO201", "AO103", "AO103"]
    assert all(row.verdict is not Verdict.ERROR for row in outcome.rows)
    servers = marks.read_text().split()
    assert servers[0] != servers[-1]  # the job ran again, from a new slot's fork server
    assert not alive(killed[0])


EXITS = """\
import os

import jax.numpy as jnp

LOG = {log!r}


def main():
    with open(LOG, "a") as log:
        log.write("{who}\\n")
    {end}
    return jnp.ones(3)
"""


def test_a_program_that_exits_is_a_verdict_not_a_retry(cluster, tmp_path, fast) -> None:
    log = tmp_path / "log.txt"
    original = EXITS.format(log=str(log), who="original", end="pass")
    rewrite = EXITS.format(log=str(log), who="rewrite", end="os._exit(3)")
    job = job_for(tmp_path, original, fast)
    job = replace(job, candidates=[Candidate("manual", "rewrite", 9, rewrite)])
    executor = RayExecutor()
    try:
        [(_, report)] = list(executor.run([job], lambda _: None))
    finally:
        executor.close()
    assert isinstance(report, VerifyReport), report
    [row] = report.rows
    assert row.verdict is Verdict.EXITED
    assert row.reason.startswith("exited with status 3 before returning (os._exit or a crash)")
    # the baseline is the original's first sample: it runs once, the rewrite once, no retry
    assert log.read_text().split() == ["original", "rewrite"]


SLEEPER = """\
import os
import time

import jax.numpy as jnp

MARK = {mark!r}


def scale(x):
    for _ in range(5):
        x = jnp.sin(x) * 0.5
    return x


def main():
    with open(MARK, "w") as mark:
        mark.write(str(os.getpid()))
    time.sleep(60)
    x = jnp.ones(8)
    for _ in range(20):
        x = scale(x)
    return x
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def eventually(check, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def _sigint_default() -> None:
    """Python turns SIGINT into KeyboardInterrupt only where it is not ignored, and a
    shell's background job (a CI runner's, say) starts with it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_changes_no_file_and_leaves_no_task_running(cluster, tmp_path) -> None:
    mark = tmp_path / "mark.txt"
    program = tmp_path / "project" / "prog.py"
    program.parent.mkdir()
    program.write_text(SLEEPER.format(mark=str(mark)))
    before = program.read_bytes()
    command = [sys.executable, "-m", "autoopt", "rewrite", str(program.parent), "--verify"]
    command += ["--write", "--no-progress", "--no-cache", "--ray-address", cluster]
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
        preexec_fn=_sigint_default,
    )
    assert eventually(mark.exists, 120), run.communicate()[0]
    time.sleep(0.2)  # the mark is written: the program is running on the cluster
    run.send_signal(signal.SIGINT)
    output = run.communicate(timeout=60)[0].decode()
    assert run.returncode == 130, output
    assert program.read_bytes() == before
    assert eventually(lambda: not alive(int(mark.read_text())))
    assert eventually(lambda: ray.available_resources().get("CPU") == 2.0)


LOG_CWD = "import os\n\nwith open({log!r}, 'a') as log:\n    log.write(os.getcwd() + '\\n')\n"


def test_verify_tests_runs_each_test_run_as_a_ray_task(cluster, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(runner, "optimize_source", planted)
    log = tmp_path / "cwd.log"
    repo = make_tree(tmp_path / "repo", {**REPO, "tests/conftest.py": LOG_CWD.format(log=str(log))})
    before = snapshot(repo)
    monkeypatch.chdir(repo)
    args = ["rewrite", ".", "--write", "--jobs", "1", "--no-cache", "--executor", "ray"]
    result = CliRunner().invoke(app, [*args, "--verify-tests", PYTEST])
    assert result.exit_code == 1, result.output
    assert "rewrote 2 file(s), reverted 1" in result.output
    after = snapshot(repo)
    assert after["calc.py"] == before["calc.py"]
    assert after["tests/conftest.py"] == before["tests/conftest.py"]
    assert (repo / "shout.py").read_text().startswith("# optimised\n")
    folders = log.read_text().split()
    assert len(folders) >= 3  # before, after, and the bisection's probes
    assert all("autoopt-tests-" in folder and folder != str(repo) for folder in folders)


def test_gpus_per_job_reaches_the_ray_options(cluster, tmp_path) -> None:
    assert slot_options(0.5) == {
        "num_cpus": 1,
        "num_gpus": 0.5,
        "max_restarts": RETRIES,
        "max_task_retries": RETRIES,
    }
    assert suite_options(0.5) == {"num_cpus": 1, "num_gpus": 0.5, "max_retries": RETRIES}
    program = tmp_path / "prog.py"
    program.write_text(CHAIN_LOOP)
    args = ["verify", str(program), "--executor", "ray", "--gpus-per-job", "0.5", "--no-cache"]
    result = CliRunner().invoke(app, [*args, "--no-progress"])  # no GPU here: no slot fits
    assert result.exit_code == 2, result.output
    assert "no room for a job (1 CPU, 0.5 GPU)" in result.output


def test_a_test_job_ships_the_work_tree_less_what_is_ignored(tmp_path) -> None:
    files = {"a.py": "", "tests/t.py": "", ".venv/lib.py": "", "__pycache__/a.pyc": ""}
    plain = make_tree(tmp_path / "plain", files)
    assert tree_files(plain) == ["a.py", "tests/t.py"]
    repo = make_tree(tmp_path / "repo", {**files, ".gitignore": "data/\n", "data/big.npy": ""})
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "a.py", ".gitignore"], cwd=repo, check=True)
    shipped = set(tree_files(repo))  # tracked, and untracked that git does not ignore
    assert {"a.py", ".gitignore", "tests/t.py"} <= shipped
    assert "data/big.npy" not in shipped
