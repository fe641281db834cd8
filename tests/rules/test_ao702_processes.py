"""AO702 across project files: launched scripts (what examples cannot show, having no path)."""

from __future__ import annotations

from pathlib import Path

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

SETTING = 'os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")'


def _check(path: Path):
    settings = Settings(select=("AO702",), unsafe_fixes=True)
    return optimize_source(path.read_text(), path=str(path), settings=settings)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "pyproject.toml").write_text("")
    for name, code in files.items():
        (tmp_path / name).write_text(code)
    return tmp_path / "main.py"


LAUNCH = """import subprocess
import jax

for seed in range(2):
    subprocess.run(["python", "train.py", str(seed)]{env})
"""


def test_a_launched_script_that_imports_jax(tmp_path: Path) -> None:
    main = _project(tmp_path, {"main.py": LAUNCH.format(env=""), "train.py": "import jax\n"})
    result = _check(main)
    assert [f.fix for f in result.findings] == [Applicability.UNSAFE]
    assert SETTING in result.new_source
    assert result.new_source.index(SETTING) < result.new_source.index("import jax")


def test_a_launched_script_without_jax(tmp_path: Path) -> None:
    main = _project(tmp_path, {"main.py": LAUNCH.format(env=""), "train.py": "import numpy\n"})
    assert _check(main).findings == []


def test_the_launcher_env_sets_it(tmp_path: Path) -> None:
    env = ', env={"XLA_PYTHON_CLIENT_MEM_FRACTION": ".4"}'
    main = _project(tmp_path, {"main.py": LAUNCH.format(env=env), "train.py": "import jax\n"})
    assert _check(main).findings == []
