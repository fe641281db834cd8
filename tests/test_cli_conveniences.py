"""Ruff's command line conveniences: --exit-zero, --statistics, stdin, empty paths, help
texts, Ctrl-C."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autoopt.frontends import cli
from autoopt.frontends.cli import app
from tests.test_cli import STEP

AO101 = (
    "step.py:4:5: AO101 `step` is called in a loop without `jax.jit`: add `@jax.jit` [fix: safe]"
)

runner = CliRunner()


def invoke(*args: str, stdin: str | None = None):
    return runner.invoke(app, [*args, "--no-progress"], input=stdin)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "step.py").write_text(STEP)
    (tmp_path / "clean.py").write_text("import jax.numpy as jnp\nx = jnp.ones(3)\n")
    return tmp_path


def test_exit_zero_with_findings(project: Path) -> None:
    result = invoke("check", "step.py", "--select", "AO101", "--exit-zero")
    assert result.exit_code == 0
    assert result.stdout == AO101 + "\n"


def test_exit_zero_still_exits_2_on_errors(project: Path) -> None:
    (project / "bad.py").write_text("def broken(:\n")
    result = invoke("check", "step.py", "bad.py", "--exit-zero")
    assert result.exit_code == 2
    assert "error: bad.py" in result.stderr


def test_statistics_counts_per_rule_most_first(project: Path) -> None:
    (project / "two.py").write_text(STEP)
    result = invoke("check", "step.py", "two.py", "--select", "AO101,AO201", "--statistics")
    assert result.exit_code == 1
    assert result.stdout == "2 AO101 missing-jit\n2 AO201 missing-donation\n"
    result = invoke("check", "step.py", "two.py", "clean.py", "--statistics", "--exit-zero")
    assert result.exit_code == 0
    assert result.stdout == (
        "2 AO101 missing-jit\n2 AO103 compiled-loop-step\n2 AO201 missing-donation\n"
    )


def test_statistics_pads_counts_to_the_widest() -> None:
    from autoopt.report.findings import statistics_lines

    class F:
        def __init__(self, rule: str) -> None:
            self.rule = rule

    findings = [F("AO301")] * 12 + [F("AO101")] * 3 + [F("AO102")] * 3
    names = {"AO301": "loop-invariant-transfer", "AO101": "missing-jit"}
    assert statistics_lines(findings, names) == [  # type: ignore[arg-type]
        "12 AO301 loop-invariant-transfer",
        " 3 AO101 missing-jit",
        " 3 AO102",
    ]


def test_check_reads_stdin(project: Path) -> None:
    result = invoke("check", "-", "--select", "AO101", stdin=STEP)
    assert result.exit_code == 1
    assert result.stdout == AO101.replace("step.py", "-") + "\n"
    named = invoke("check", "-", "--select", "AO101", "--stdin-filename", "step.py", stdin=STEP)
    assert named.stdout == AO101 + "\n"


def test_rewrite_stdin_prints_a_diff_or_with_write_the_code(project: Path) -> None:
    result = invoke("rewrite", "-", "--select", "AO101", stdin=STEP)
    assert result.exit_code == 1
    assert result.stdout.startswith("--- -\n+++ -\n")
    assert "+@jax.jit\n" in result.stdout
    written = invoke("rewrite", "-", "--select", "AO101", "--write", stdin=STEP)
    assert written.exit_code == 0
    assert written.stdout.startswith("import jax\nimport jax.numpy as jnp\n")
    assert "\n@jax.jit\ndef step(u):\n" in written.stdout
    assert (project / "step.py").read_text() == STEP
    clean = invoke("rewrite", "-", "--write", stdin="x = 1\n")
    assert (clean.exit_code, clean.stdout) == (0, "x = 1\n")
    broken = invoke("rewrite", "-", "--write", stdin="def broken(:\n")
    assert (broken.exit_code, broken.stdout) == (2, "")
    assert broken.stderr.startswith("error: -")


def test_stdin_alone(project: Path) -> None:
    result = invoke("check", "-", "step.py", stdin=STEP)
    assert result.exit_code == 2
    assert result.stderr == "error: - (stdin) cannot be combined with other paths\n"


def test_warns_on_a_path_with_no_python_file(project: Path) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "notes.md").write_text("notes\n")
    result = invoke("check", "docs", "step.py", "--select", "AO101")
    assert result.exit_code == 1
    assert result.stdout == AO101 + "\n"
    assert result.stderr.startswith("warning: docs: no Python file found\n")
    clean = invoke("check", "docs", "clean.py")
    assert clean.exit_code == 0
    assert "warning: docs: no Python file found\n" in clean.stderr


def _help(command: str) -> str:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.stdout).split())


def test_help_keeps_brackets_and_one_jobs_default() -> None:
    text = _help("rewrite")
    assert "`test-files` in [tool.autoopt])" in text
    assert "pip install 'autoopt[ray]')" in text
    jobs = text[text.index("--jobs") : text.index("--exclude")]
    assert "0, the default, uses all cores" in jobs
    assert "[default" not in jobs


def test_ctrl_c_says_so_and_exits_130(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupt(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "collect", interrupt)
    monkeypatch.setattr(sys, "argv", ["autoopt", "check", "step.py", "--no-progress"])
    with pytest.raises(SystemExit) as exited:
        cli.main()
    assert exited.value.code == 130
    assert capsys.readouterr().err == "autoopt: interrupted\n"
