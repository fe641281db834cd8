"""A real editor: headless Neovim, configured with the snippet of docs/editors.md as its
init file, applies autoopt's first code action."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CORPUS = ROOT / "corpus" / "heat_diffusion.py"
DOC = ROOT / "docs" / "editors.md"
NVIM = shutil.which("nvim")
RULE = "AO101"  # the file's one AO101 finding; other rules are left out on both sides

pytestmark = pytest.mark.skipif(
    NVIM is None and not os.environ.get("CI"),
    reason="nvim not found (apt-get install neovim); with CI set this test runs and fails",
)


def documented_config() -> str:
    """The one Lua block of the Neovim section of docs/editors.md, as a user copies it."""
    section = DOC.read_text(encoding="utf-8").split("\n## Neovim\n", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```lua\n(.*?)```", section, re.S)
    return block


def autoopt_on_path(folder: Path) -> dict[str, str]:
    """An environment whose `autoopt` (the config's command) runs this checkout."""
    folder.mkdir()
    shim = folder / "autoopt"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m autoopt "$@"\n')
    shim.chmod(0o755)
    path = os.pathsep.join([str(folder), os.environ.get("PATH", "")])
    python_path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PATH": path, "PYTHONPATH": python_path}


def test_the_documented_config_attaches_and_its_first_code_action_equals_cli_rewrite(
    tmp_path: Path,
) -> None:
    edited, expected = tmp_path / "edited" / CORPUS.name, tmp_path / "cli" / CORPUS.name
    for copy in (edited, expected):
        copy.parent.mkdir()
        shutil.copy(CORPUS, copy)
    (edited.parent / "pyproject.toml").write_text(f'[tool.autoopt]\nselect = ["{RULE}"]\n')
    cli = [sys.executable, "-m", "autoopt", "rewrite", "--write", "--select", RULE, str(expected)]
    subprocess.run(cli, check=True, timeout=120)
    assert expected.read_text() != CORPUS.read_text()

    init = tmp_path / "init.lua"
    init.write_text(documented_config())
    script = HERE / "neovim_code_action.lua"
    command = [NVIM or "nvim", "--headless", "-u", str(init), "-i", "NONE", "-n"]
    done = subprocess.run(
        [*command, "-c", f"luafile {script}", str(edited)],
        cwd=tmp_path,
        env=autoopt_on_path(tmp_path / "bin"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"root: {edited.parent}" in done.stderr  # found from pyproject.toml, not the cwd
    assert edited.read_text() == expected.read_text()
