"""--verify-tests: a planted unsafe rewrite breaks a test; only that file is reverted."""

from __future__ import annotations

import sys

import pytest

from autoopt.config import Settings
from autoopt.model import Applicability, AutooptError, Finding, Result, Span
from autoopt.verify.executor import LocalExecutor
from autoopt.workspace import runner
from autoopt.workspace.batch import collect, write_verified
from autoopt.workspace.verify_tests import (
    ProjectTests,
    Rewritten,
    TestJob,
    culprits,
    run_in_place,
)
from tests.workspace.conftest import make_tree, snapshot

REPO = {
    "calc.py": "def double(x):\n    return 2 * x\n",
    "shout.py": "def shout(s):\n    return s.upper()\n",
    "other.py": "VALUE = 1\n",
    "tests/test_calc.py": "from calc import double\n\ndef test_it():\n    assert double(2) == 4\n",
}
PYTEST = f"{sys.executable} -m pytest -q -p no:cacheprovider tests"


def planted(code: str, *, path: str, settings) -> Result:
    """Stands in for the pipeline: a harmless edit everywhere, a breaking one in calc.py."""
    new = code.replace("2 * x", "3 * x") if "double" in code else "# optimised\n" + code
    found = Finding("AO101", "missing-jit", "planted", Span(1, 1, 1, 2), Applicability.UNSAFE)
    return Result(path, code, [found], new, [found])


@pytest.fixture
def repo(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "optimize_source", planted)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return make_tree(tmp_path, REPO)


def test_reverts_exactly_the_breaking_file(repo, cli):
    before = snapshot(repo)
    result = cli(
        "rewrite", ".", "--write", "--jobs", "1", "--no-cache", "--verify-tests", PYTEST, cwd=repo
    )
    assert result.exit_code == 1, result.stderr
    assert "./calc.py: reverted: its rewrite makes" in result.stderr
    assert "rewrote 2 file(s), reverted 1" in result.stderr
    after = snapshot(repo)
    assert after["calc.py"] == before["calc.py"]
    assert after["tests/test_calc.py"] == before["tests/test_calc.py"]
    assert (repo / "shout.py").read_text().startswith("# optimised\n")
    assert (repo / "other.py").read_text().startswith("# optimised\n")


def test_failing_tests_before_rewriting_write_nothing(repo, cli):
    (repo / "tests/test_calc.py").write_text("def test_broken():\n    assert False\n")
    before = snapshot(repo)
    result = cli("rewrite", ".", "--write", "--no-cache", "--verify-tests", PYTEST, cwd=repo)
    assert result.exit_code == 2
    assert "tests fail before rewriting; nothing written" in result.stderr
    assert snapshot(repo) == before


def test_needs_write(repo, cli):
    result = cli("rewrite", ".", "--verify-tests", PYTEST, cwd=repo)
    assert result.exit_code == 2
    assert "--verify-tests needs --write" in result.stderr


def test_a_command_over_its_timeout_fails():
    assert not ProjectTests(f"{sys.executable} -c 'import time; time.sleep(5)'", 0.3).passes()
    assert ProjectTests(f"{sys.executable} -c pass", 30).passes()


def test_the_local_executor_runs_a_test_job_in_place(tmp_path):
    calc = make_tree(tmp_path, {"calc.py": "X = 1\n"}) / "calc.py"
    check = f"{sys.executable} -c 'import calc; assert calc.X == 2'"
    executor = LocalExecutor()
    assert not executor.run_tests(TestJob(check, 30, tmp_path))
    assert executor.run_tests(TestJob(check, 30, tmp_path, {calc: b"X = 2\n"}))
    assert calc.read_text() == "X = 2\n"


def test_tests_that_cannot_finish_leave_every_file_as_it_was(repo):
    runs: list[TestJob] = []

    def dies_at_the_first_probe(job: TestJob) -> bool:
        runs.append(job)
        if len(runs) == 3:  # before, after (calc.py breaks it), then the bisection
            raise AutooptError(PYTEST, "the worker running the tests died")
        return run_in_place(job)

    before = snapshot(repo)
    batch = collect([str(repo)], Settings(), jobs=1, cache=False)
    with pytest.raises(AutooptError, match="the worker running the tests died"):
        write_verified(batch, ProjectTests(PYTEST, 60, repo, run=dies_at_the_first_probe))
    assert snapshot(repo) == before and batch.written == []


def _files(n: int) -> list[Rewritten]:
    return [Rewritten(f"f{i}.py", None, b"", b"") for i in range(n)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bad", "pairs"),
    [({3}, []), ({0, 7}, []), (set(), [(2, 5)]), ({6}, [(1, 4)])],
)
def test_bisection_finds_single_culprits_and_interacting_pairs(bad, pairs):
    files = _files(8)
    probes = []

    def passes(subset: list[Rewritten]) -> bool:
        probes.append(len(subset))
        chosen = {int(f.display[1:-3]) for f in subset}
        return not (chosen & bad) and not any(a in chosen and b in chosen for a, b in pairs)

    verdict = culprits(files, passes)
    reverted = {int(f.display[1:-3]) for f in verdict.reverted}
    assert passes(verdict.kept)
    assert reverted >= bad and len(reverted) == len(bad) + len(pairs)
    assert len(probes) <= 1 + (len(bad) + len(pairs)) * 5
