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
