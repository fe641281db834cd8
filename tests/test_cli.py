"""The command line contract: output lines, exit codes, diffs that apply, --write."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autoopt.config import load_settings, parse_size
from autoopt.frontends.cli import app
from autoopt.rules import ALL_RULES

STEP = """\
import jax.numpy as jnp


def step(u):
    return jnp.tanh(u) * 0.5


def main():
    u = jnp.ones(4)
    for _ in range(10):
        u = step(u)
    return u
"""

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(
        app, [*args, "--no-progress"] if args[0] in {"check", "rewrite"} else list(args)
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "step.py").write_text(STEP)
    (tmp_path / "clean.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3)\n")
    return tmp_path


def test_check_lists_findings_and_exits_1(project: Path) -> None:
    result = invoke("check", "step.py", "clean.py", "--select", "AO101")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "step.py:4:5: AO101 `step` is called in a loop without `jax.jit`:"
        " add `@jax.jit` [fix: safe]"
    )


def test_check_exits_0_without_findings(project: Path) -> None:
    result = invoke("check", "clean.py")
    assert result.exit_code == 0
    assert result.stdout.strip() == ""


def test_check_json_document(project: Path) -> None:
    result = invoke("check", "step.py", "--select", "AO101", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["files"] == 1
    assert document["errors"] == []
    assert document["findings"] == [
        {
            "path": "step.py",
            "line": 4,
            "column": 5,
            "end_line": 4,
            "end_column": 9,
            "rule": "AO101",
            "name": "missing-jit",
            "message": "`step` is called in a loop without `jax.jit`: add `@jax.jit`",
            "fix": "safe",
            "fix_edits": {
                "applicability": "safe",
                "message": "Add @jax.jit",
                "edits": [
                    {
                        "content": "import jax\n",
                        "location": {"row": 1, "column": 1},
                        "end_location": {"row": 1, "column": 1},
                    },
                    {
                        "content": "@jax.jit\n",
                        "location": {"row": 4, "column": 1},
                        "end_location": {"row": 4, "column": 1},
                    },
                ],
            },
        }
    ]


def test_syntax_error_is_reported_and_other_files_still_run(project: Path) -> None:
    (project / "broken.py").write_text("import jax\n\ndef f(:\n    pass\n")
    result = invoke("check", "broken.py", "step.py", "--select", "AO101")
    assert result.exit_code == 2
    assert "step.py:4:5: AO101" in result.stdout
    assert "broken.py:3: syntax error" in result.stderr


def test_missing_path_is_an_error(project: Path) -> None:
    result = invoke("check", "nope.py")
    assert result.exit_code == 2
    assert "nope.py" in result.stderr


def test_rewrite_diff_applies_with_patch_and_write_is_idempotent(project: Path) -> None:
    shutil.copy(project / "step.py", project / "copy.py")
    result = invoke("rewrite", "step.py", "--select", "AO101")
    assert result.exit_code == 1
    assert result.stdout.startswith("--- step.py\n+++ step.py\n")
    assert "+@jax.jit\n" in result.stdout
    (project / "fix.patch").write_text(result.stdout)
    if shutil.which("patch"):
        subprocess.run(
            ["patch", "-p0", "-i", "fix.patch"], cwd=project, check=True, capture_output=True
        )
        patched = (project / "step.py").read_text()
        (project / "step.py").write_text(STEP)
    write = invoke("rewrite", "copy.py", "--select", "AO101", "--write")
    assert write.exit_code == 0
    written = (project / "copy.py").read_text()
    assert written.startswith("import jax\nimport jax.numpy as jnp\n")
    if shutil.which("patch"):
        assert patched == written
    again = invoke("rewrite", "copy.py", "--select", "AO101")
    assert again.exit_code == 0
    assert again.stdout == ""


def test_rewrite_with_nothing_to_do_exits_0(project: Path) -> None:
    result = invoke("rewrite", "clean.py")
    assert result.exit_code == 0
    assert result.stdout == ""


def test_directory_argument_walks_the_tree(project: Path) -> None:
    (project / "pkg").mkdir()
    shutil.copy(project / "step.py", project / "pkg" / "inner.py")
    result = invoke("check", ".", "--select", "AO101")
    paths = sorted(os.path.normpath(line.split(":")[0]) for line in result.stdout.splitlines())
    assert paths == ["pkg/inner.py", "step.py"]


def test_rules_and_explain(project: Path) -> None:
    listing = invoke("rules")
    assert listing.exit_code == 0
    assert [line.split()[0] for line in listing.stdout.splitlines()] == [r.id for r in ALL_RULES]
    for rule in ALL_RULES:
        page = invoke("explain", rule.id.lower())
        assert page.exit_code == 0
        assert page.stdout.startswith(f"# {rule.id} {rule.name}\n")
        assert "## Fix safety" in page.stdout
    assert invoke("explain", "AO999").exit_code == 2


def test_console_script_runs_as_a_module(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "autoopt", "check", "step.py", "--select", "AO101", "--no-progress"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("step.py:4:5: AO101")
    assert "jax" not in done.stderr.lower() or "error" not in done.stderr.lower()


REMAT = """\
import jax
import jax.numpy as jnp


def block(h, w):
    return jnp.tanh(h @ w), None


def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return h.sum()


grad_step = jax.jit(jax.grad(loss))
"""


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("4096", 4096),
        ("64MiB", 64 << 20),
        ("1GiB", 1 << 30),
        ("1.5 GiB", 3 << 29),
        ("512kb", 512 << 10),
        ("64MB", 64 << 20),
        ("2M", 2 << 20),
        ("0", 0),
    ],
)
def test_sizes_parse(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "lots", "-1", "64 MiBs", "GiB", "1e9", "1 PiB"])
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="is not a size: use bytes"):
        parse_size(text)


def test_bad_memory_budget_names_the_option(project: Path) -> None:
    result = invoke("check", "step.py", "--memory-budget", "64XB")
    assert result.exit_code == 2
    assert "Invalid value for '--memory-budget'" in result.output
    assert "'64XB' is not a size" in result.output


def test_memory_budget_from_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.autoopt]\nmemory-budget = "64MiB"\n')
    assert load_settings(project).memory_budget == 64 << 20
    (project / "pyproject.toml").write_text("[tool.autoopt]\nmemory-budget = 4096\n")
    assert load_settings(project).memory_budget == 4096
    (project / "pyproject.toml").write_text('[tool.autoopt]\nmemory-budget = "big"\n')
    result = invoke("check", "step.py")
    assert result.exit_code == 2
    assert "memory-budget: 'big' is not a size" in result.stderr


def test_memory_budget_without_verification_is_noted(project: Path) -> None:
    (project / "remat.py").write_text(REMAT)
    result = invoke("check", "remat.py", "--memory-budget", "64MiB")
    assert result.exit_code == 1
    assert "AO601" in result.stdout
    assert "memory budget (64.0 MiB) was not checked for 1 AO601 finding(s)" in result.stderr
    assert "not checked" not in invoke("check", "remat.py").stderr


HELD_BACK = "1 test/benchmark files not rewritten (--include-tests rewrites them)"


@pytest.fixture
def with_tests(project: Path) -> Path:
    (project / "tests").mkdir()
    (project / "tests" / "test_x.py").write_text(STEP)
    return project / "tests" / "test_x.py"


def test_test_files_are_checked(project: Path, with_tests: Path) -> None:
    result = invoke("check", ".", "--select", "AO101")
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        "./step.py",
        "./tests/test_x.py",
    ]
    assert f"3 files scanned, 1 files to rewrite, {HELD_BACK}, 0 errors" in result.stderr


def test_test_files_are_not_rewritten_without_include_tests(
    project: Path, with_tests: Path
) -> None:
    before = with_tests.read_bytes()
    result = invoke("rewrite", ".", "--select", "AO101", "--write")
    assert result.exit_code == 0
    assert f"3 files scanned, 1 files rewritten, {HELD_BACK}, 0 errors" in result.stderr
    assert with_tests.read_bytes() == before
    assert "@jax.jit" in (project / "step.py").read_text()
    diff = invoke("rewrite", ".", "--select", "AO101")
    assert (diff.exit_code, diff.stdout) == (0, "")


def test_include_tests_rewrites_them(project: Path, with_tests: Path) -> None:
    result = invoke("rewrite", ".", "--select", "AO101", "--write", "--include-tests")
    assert result.exit_code == 0
    assert "3 files scanned, 2 files rewritten, 0 errors" in result.stderr
    assert "test/benchmark" not in result.stderr
    assert with_tests.read_text() == (project / "step.py").read_text()
    assert "@jax.jit" in with_tests.read_text()


def test_a_test_file_named_on_the_command_line_is_not_rewritten(
    project: Path, with_tests: Path
) -> None:
    before = with_tests.read_bytes()
    result = invoke("rewrite", "tests/test_x.py", "--select", "AO101", "--write")
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == (
        "note: tests/test_x.py: a test or benchmark file, not rewritten;"
        " --include-tests rewrites it"
    )
    assert with_tests.read_bytes() == before
    named = invoke("rewrite", "tests/test_x.py", "--select", "AO101", "--include-tests")
    assert named.exit_code == 1
    assert named.stdout.startswith("--- tests/test_x.py\n+++ tests/test_x.py\n")
    assert "note:" not in named.stderr


def test_include_tests_and_test_files_from_pyproject(project: Path, with_tests: Path) -> None:
    (project / "benchmarks").mkdir()
    (project / "benchmarks" / "bench.py").write_text(STEP)
    (project / "pyproject.toml").write_text('[tool.autoopt]\ntest-files = ["benchmarks/"]\n')
    assert invoke("rewrite", ".", "--select", "AO101", "--write").exit_code == 0
    assert "@jax.jit" in with_tests.read_text()
    assert (project / "benchmarks" / "bench.py").read_text() == STEP
    (project / "pyproject.toml").write_text("[tool.autoopt]\ninclude-tests = true\n")
    assert invoke("rewrite", ".", "--select", "AO101", "--write").exit_code == 0
    assert "@jax.jit" in (project / "benchmarks" / "bench.py").read_text()
