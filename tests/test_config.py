"""The project's line length, read from Ruff's or Black's configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.config import line_length


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param({}, 88, id="none-says-ruffs-default"),
        pytest.param({"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, 100, id="ruff"),
        pytest.param({"pyproject.toml": "[tool.black]\nline-length = 79\n"}, 79, id="black"),
        pytest.param(
            {"pyproject.toml": "[tool.ruff]\nline-length = 120\n[tool.black]\nline-length = 79\n"},
            120,
            id="ruff-before-black",
        ),
        pytest.param(
            {"pyproject.toml": "[tool.ruff.lint]\nselect = []\n[tool.black]\nline-length = 90\n"},
            90,
            id="black-where-ruff-leaves-it-out",
        ),
        pytest.param(
            {
                "ruff.toml": "line-length = 110\n",
                "pyproject.toml": "[tool.ruff]\nline-length = 70\n",
            },
            110,
            id="ruff-toml-first",
        ),
        pytest.param({".ruff.toml": "line-length = 95\n"}, 95, id="dot-ruff-toml"),
        pytest.param({"pyproject.toml": "[project]\nname = 'x'\n"}, 88, id="no-tool-table"),
    ],
)
def test_line_length(tmp_path: Path, files: dict[str, str], expected: int) -> None:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    for name, text in files.items():
        (project / name).write_text(text)
    assert line_length(project / "pkg") == expected


def test_the_nearest_configuration_wins(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "ruff.toml").write_text("line-length = 72\n")
    assert line_length(tmp_path / "sub") == 72
    assert line_length(tmp_path) == 100
