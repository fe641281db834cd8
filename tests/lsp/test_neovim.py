"""A real editor: headless Neovim's built-in LSP client applies autoopt's first code action."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
CORPUS = HERE.parents[1] / "corpus" / "heat_diffusion.py"
NVIM = shutil.which("nvim")
RULE = "AO101"  # the file's one AO101 finding; other rules are left out on both sides

pytestmark = pytest.mark.skipif(
    NVIM is None and not os.environ.get("CI"),
    reason="nvim not found (apt-get install neovim); with CI set this test runs and fails",
)


def test_neovim_first_code_action_equals_cli_rewrite(tmp_path: Path) -> None:
    edited, expected = tmp_path / "edited" / CORPUS.name, tmp_path / "cli" / CORPUS.name
    for copy in (edited, expected):
        copy.parent.mkdir()
        shutil.copy(CORPUS, copy)
    autoopt = [sys.executable, "-m", "autoopt"]
    cli = [*autoopt, "rewrite", "--write", "--select", RULE, str(expected)]
    subprocess.run(cli, check=True, timeout=120)
    assert expected.read_text() != CORPUS.read_text()

    env = {
        **os.environ,
        "AUTOOPT_LSP_CMD": json.dumps([*autoopt, "lsp"]),
        "AUTOOPT_LSP_OPTIONS": json.dumps({"select": [RULE]}),
    }
    script = HERE / "neovim_code_action.lua"
    command = [NVIM or "nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n"]
    done = subprocess.run(
        [*command, "-c", f"luafile {script}", str(edited)],
        cwd=edited.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert edited.read_text() == expected.read_text()
