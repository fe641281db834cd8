"""Whether a module imports jax, itself or through the project modules it imports."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import dependencies
from autoopt.analysis.facts.jax_reach import first_statement_reaching_jax, reaches_jax

PROJECT = {
    "pyproject.toml": "",
    "app/__init__.py": "",
    "app/model.py": "import jax.numpy as jnp\n",
    "app/cycle_a.py": "from app import cycle_b\n",
    "app/cycle_b.py": "from app import cycle_a\n",
    "app/io.py": "import json\n",
    "app/lazy.py": "def load():\n    import jax\n",
}


def _context(tmp_path: Path, code: str, path: str = "app/main.py") -> ModuleContext:
    for name, text in {**PROJECT, path: code}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return ModuleContext(str(tmp_path / path), code, cst.parse_module(code))


@pytest.mark.parametrize(
    ("code", "reaches"),
    [
        ("import jax\n", True),
        ("from app.model import train\n", True),
        ("from app import model\n", True),
        ("import app.model\n", True),
        ("from . import model\n", True),
        ("from .model import train\n", True),
        ("from app import io, cycle_a\n", False),
        ("from app.lazy import load\n", True),
        ("import numpy\nimport model\n", True),  # a sibling, as `python app/main.py` runs it
        ("import numpy\nimport missing\n", False),
    ],
)
def test_reaches_jax(tmp_path: Path, code: str, reaches: bool) -> None:
    assert reaches_jax(_context(tmp_path, code)) is reaches


def test_without_a_file_only_the_module_counts() -> None:
    code = "from app.model import train\n"
    assert not reaches_jax(ModuleContext("<string>", code, cst.parse_module(code)))


def test_the_first_statement_and_the_files_read(tmp_path: Path) -> None:
    ctx = _context(tmp_path, "import os\nimport json\nfrom app.model import train\nimport jax\n")
    assert first_statement_reaching_jax(ctx) == 2
    assert str(tmp_path / "app/model.py") in dependencies(ctx)
