"""The pytest configuration above a conftest.py: xdist workers, pytest-env, test files."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import dependencies
from autoopt.analysis.facts.pytest_config import (
    Xdist,
    outermost_conftest,
    suite_reaches_jax,
    xdist,
)


def _context(tmp_path: Path, files: dict[str, str], path: str = "tests/conftest.py"):
    for name, text in {**files, path: files.get(path, "")}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    code = (tmp_path / path).read_text()
    return ModuleContext(str(tmp_path / path), code, cst.parse_module(code))


@pytest.mark.parametrize(
    ("name", "text", "option", "workers"),
    [
        ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-n 4"\n', "-n 4", 4),
        ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = ["-q", "-n4"]\n', "-n4", 4),
        (
            "pyproject.toml",
            '[tool.pytest]\naddopts = ["--numprocesses", "auto"]\n',
            "--numprocesses auto",
            None,
        ),
        ("pytest.ini", "[pytest]\naddopts =\n    -v\n    -n=3\n", "-n=3", 3),
        ("tox.ini", "[pytest]\naddopts = -nlogical\n", "-nlogical", None),
        ("setup.cfg", "[tool:pytest]\naddopts = --numprocesses=2\n", "--numprocesses=2", 2),
    ],
)
def test_the_number_of_workers(
    tmp_path: Path, name: str, text: str, option: str, workers: int | None
) -> None:
    ctx = _context(tmp_path, {"setup.py": "", name: text})
    assert xdist(ctx) == Xdist(tmp_path / name, option, workers, ())


@pytest.mark.parametrize(
    "addopts",
    ["-v", "-n 1", "-n 0", "-n 4 -p no:xdist", "--dist loadscope", '"-n 4'],
)
def test_not_several_workers(tmp_path: Path, addopts: str) -> None:
    ctx = _context(tmp_path, {"setup.cfg": f"[tool:pytest]\naddopts = {addopts}\n"})
    assert xdist(ctx) is None


def test_pytest_reads_the_first_file_with_a_pytest_section(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": "[tool.black]\nline-length = 100\n",
        "tox.ini": "[pytest]\naddopts = -n 2\n",
        "setup.cfg": "[tool:pytest]\naddopts = -n 8\n",
    }
    ctx = _context(tmp_path, files)
    assert xdist(ctx) == Xdist(tmp_path / "tox.ini", "-n 2", 2, ())
    assert set(dependencies(ctx)) == {str(tmp_path / "pyproject.toml"), str(tmp_path / "tox.ini")}


def test_pytest_env_settings(tmp_path: Path) -> None:
    text = (
        '[tool.pytest.ini_options]\naddopts = "-n 2"\n'
        'env = ["D:XLA_PYTHON_CLIENT_MEM_FRACTION=.4", "JAX_PLATFORMS = cpu"]\n'
    )
    ctx = _context(tmp_path, {"pyproject.toml": text})
    settings = (("XLA_PYTHON_CLIENT_MEM_FRACTION", ".4"), ("JAX_PLATFORMS", "cpu"))
    assert xdist(ctx) == Xdist(tmp_path / "pyproject.toml", "-n 2", 2, settings)


def test_the_outermost_conftest(tmp_path: Path) -> None:
    files = {"pyproject.toml": "", "tests/conftest.py": "", "tests/unit/conftest.py": ""}
    assert outermost_conftest(_context(tmp_path, files))
    assert not outermost_conftest(_context(tmp_path, files, "tests/unit/conftest.py"))
    assert not outermost_conftest(
        _context(tmp_path, {**files, "tests/helpers.py": ""}, "tests/helpers.py")
    )


def test_tests_that_reach_jax_through_the_project(tmp_path: Path) -> None:
    files = {
        "pyproject.toml": "",
        "src/sim/__init__.py": "",
        "src/sim/core.py": "from . import ops\n",
        "src/sim/ops.py": "import jax\n",
        "tests/test_io.py": "import json\n",
        "tests/deep/test_core_test.py": "from sim.core import run\n",
    }
    ctx = _context(tmp_path, files)
    assert suite_reaches_jax(ctx)
    assert str(tmp_path / "src/sim/ops.py") in dependencies(ctx)
    files["src/sim/ops.py"] = "import numpy\n"
    assert not suite_reaches_jax(_context(tmp_path / "other", files))
