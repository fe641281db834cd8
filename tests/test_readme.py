"""The README's first command does what the README says: the corpus's rewrites as a diff
on stdout, and last, on stderr, the summary."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def first_commands() -> list[str]:
    """The lines of the README's first code block."""
    [block] = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[:1]
    return block.splitlines()


def test_the_first_block_installs_then_rewrites_the_corpus_then_tests() -> None:
    assert first_commands() == [
        "pip install -e . && autoopt rewrite corpus/",
        "pip install -e '.[test]' && python -m pytest",
    ]


def test_the_first_command_ends_with_the_summary(tmp_path: Path) -> None:
    command = first_commands()[0].split(" && ")[1].split()
    assert command[0] == "autoopt"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUTOOPT_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 1  # changes shown
    assert done.stdout.startswith("--- corpus/")
    assert len(done.stdout.splitlines()) > 1000
    *table, caption = done.stderr.splitlines()
    assert table[0].startswith("autoopt summary") and table[-1].startswith("└")
    assert any(row.startswith("│ total") for row in table)
    assert re.fullmatch(r"\d+ files scanned, \d+ files to rewrite, 0 errors, [\d.]+ s; .+", caption)
