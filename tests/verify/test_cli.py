"""The `autoopt verify` command: exit codes and messages that need no subprocess."""

from __future__ import annotations

from typer.testing import CliRunner

from autoopt.frontends.cli import app


def test_verify_without_entry_explains_how_to_name_one(tmp_path) -> None:
    path = tmp_path / "prog.py"
    path.write_text("import jax\n\n\ndef run():\n    return 1\n")
    result = CliRunner().invoke(app, ["verify", str(path), "--no-progress"])
    assert result.exit_code == 2
    assert "--entry MODULE:FUNC" in result.output


def test_verify_with_nothing_to_rewrite_exits_0(tmp_path) -> None:
    path = tmp_path / "prog.py"
    path.write_text("import jax.numpy as jnp\n\n\ndef main():\n    return jnp.ones(3)\n")
    result = CliRunner().invoke(app, ["verify", str(path), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "no rewrites to verify" in result.output


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


def test_rewrite_verify_keeps_the_verified_jit(tmp_path, fast, monkeypatch) -> None:
    from autoopt.verify import commands

    monkeypatch.setattr(commands, "options_for", lambda *args: fast)
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    result = CliRunner().invoke(app, ["rewrite", str(path), "--verify", "--no-progress"])
    assert result.exit_code == 1, result.output
    added = [line for line in result.stdout.splitlines() if line.startswith("+")]
    assert any("jax.jit" in line for line in added), result.stdout
    assert "accepted" in result.output and "per program" in result.output


def test_tolerances_from_arguments_then_options_then_settings(tmp_path, monkeypatch) -> None:
    from autoopt.config import Settings
    from autoopt.verify import VerifyOptions, pipeline

    seen = []
    monkeypatch.setattr(
        pipeline, "verify_candidates", lambda _p, _c, options, **_: seen.append(options)
    )
    path = tmp_path / "prog.py"
    path.write_text("def main():\n    return 1\n")
    settings = Settings(rtol=1e-3, atol=1e-6)
    pipeline.verify_file(path, settings=settings, options=VerifyOptions(rtol=1e-2))
    pipeline.verify_file(path, settings=settings, rtol=0.5, options=VerifyOptions(rtol=1e-2))
    assert [(o.rtol, o.atol) for o in seen] == [(1e-2, 1e-6), (0.5, 1e-6)]


def captured_options(monkeypatch) -> dict:
    """Replaces the verify command: what it was asked to do lands in the returned dict."""
    from autoopt.verify import commands

    seen: dict = {}

    def fake(path, settings, options, *rest):
        seen["options"] = options
        return 0

    monkeypatch.setattr(commands, "verify_command", fake)
    return seen


def test_verify_budget_and_inconclusive_policy_reach_the_options(tmp_path, monkeypatch) -> None:
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    seen = captured_options(monkeypatch)
    args = ["verify", str(path), "--verify-budget", "7.5", "--verify-inconclusive", "drop"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen["options"].budget_s == 7.5 and seen["options"].inconclusive == "drop"
    CliRunner().invoke(app, ["verify", str(path)])
    assert seen["options"].budget_s == 30.0 and seen["options"].inconclusive == "keep-safe"


def test_verify_budget_from_pyproject_and_the_command_line_over_it(tmp_path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.autoopt]\nverify-budget = 12\nverify-inconclusive = "keep"\n'
    )
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    seen = captured_options(monkeypatch)
    CliRunner().invoke(app, ["verify", str(path)])
    assert seen["options"].budget_s == 12 and seen["options"].inconclusive == "keep"
    CliRunner().invoke(app, ["verify", str(path), "--verify-budget", "45"])
    assert seen["options"].budget_s == 45 and seen["options"].inconclusive == "keep"


def test_a_bad_verify_budget_is_an_error(tmp_path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    result = CliRunner().invoke(app, ["verify", str(path), "--verify-budget", "0"])
    assert result.exit_code == 2 and "--verify-budget" in result.output
    (tmp_path / "pyproject.toml").write_text('[tool.autoopt]\nverify-budget = "soon"\n')
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "verify-budget: 'soon' is not a positive number" in result.output


def test_rewrite_verify_jobs_verifies_files_at_once(tmp_path, fast, monkeypatch) -> None:
    from autoopt.verify import commands

    monkeypatch.setattr(commands, "options_for", lambda *args: fast)
    for name in ("one.py", "two.py"):
        (tmp_path / name).write_text(CHAIN_LOOP)
    args = [
        "rewrite",
        str(tmp_path),
        "--verify",
        "--verify-jobs",
        "2",
        "--no-progress",
        "--no-cache",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    for name in ("one.py", "two.py"):
        assert f"+++ {tmp_path / name}" in result.stdout, result.stdout
    assert result.stdout.count("+    x = _main_loop(x)") == 2, result.stdout
    assert result.output.count("accepted") >= 2, result.output


def test_verify_jobs_from_pyproject_and_the_command_line_over_it(tmp_path, monkeypatch) -> None:
    from autoopt.verify import commands

    seen = []
    monkeypatch.setattr(
        commands, "verify_outcomes", lambda outcomes, settings, *rest: seen.append(settings) or []
    )
    (tmp_path / "pyproject.toml").write_text("[tool.autoopt]\nverify-jobs = 3\n")
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    CliRunner().invoke(app, ["rewrite", str(path), "--verify"])
    CliRunner().invoke(app, ["rewrite", str(path), "--verify", "--verify-jobs", "2"])
    assert [s.verify_jobs for s in seen] == [3, 2]


def test_a_bad_verify_jobs_is_an_error(tmp_path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(CHAIN_LOOP)
    result = CliRunner().invoke(app, ["rewrite", str(path), "--verify", "--verify-jobs", "0"])
    assert result.exit_code == 2 and "--verify-jobs" in result.output
    args = ["rewrite", str(path), "--verify", "--verify-jobs", "2", "--executor", "ray"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "--verify-jobs is for the local executor" in result.output
    (tmp_path / "pyproject.toml").write_text("[tool.autoopt]\nverify-jobs = 1.5\n")
    result = CliRunner().invoke(app, ["rewrite", str(path), "--verify"])
    assert result.exit_code == 2
    assert "verify-jobs: 1.5 is not a positive integer" in result.output
