"""AO702 across project files: launched scripts, the pytest configuration, the cache."""

from __future__ import annotations

from pathlib import Path

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from autoopt.rules.ao702_shared_gpu_preallocation import SharedGpuPreallocation
from autoopt.workspace.cache import ResultCache, key

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


CONFTEST = "import pytest\n"
XDIST = '[tool.pytest.ini_options]\naddopts = "-n 2"\n'


def test_the_conftest_finding_depends_on_the_pytest_configuration(tmp_path: Path) -> None:
    """A cached result of conftest.py is dropped when pyproject.toml changes."""
    (tmp_path / "pyproject.toml").write_text(XDIST)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_model.py").write_text("import jax\n")
    conftest = tmp_path / "tests/conftest.py"
    conftest.write_text(CONFTEST)
    result = _check(conftest)
    assert [f.span.line for f in result.findings] == [1]
    assert result.new_source == f"import os\n\n{SETTING}\n{CONFTEST}"
    cache = ResultCache(tmp_path / "cache.json")
    entry = key(Settings(select=("AO702",), unsafe_fixes=True), CONFTEST.encode())
    cache.put(entry, result)
    assert cache.get(entry) is not None
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = "-v"\n')
    assert cache.get(entry) is None
    assert _check(conftest).findings == []


CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "shared_gpu_workers.py"


def test_the_corpus_program_is_rewritten_only_with_unsafe_fixes() -> None:
    source = CORPUS.read_text()
    assert optimize_source(source, path=str(CORPUS)).new_source == source
    result = optimize_source(source, path=str(CORPUS), settings=Settings(unsafe_fixes=True))
    assert [f.rule for f in result.applied] == ["AO702"]
    assert result.new_source == source.replace(
        "import multiprocessing\n\n", f"import multiprocessing\nimport os\n\n{SETTING}\n", 1
    )


def test_modules_without_jax_are_read_only_when_they_may_launch_workers() -> None:
    assert not SharedGpuPreallocation.reads_without_jax(
        "import numpy as np\nx = np.array(1)\n", "a.py"
    )
    assert SharedGpuPreallocation.reads_without_jax("import subprocess\n", "a.py")
    assert SharedGpuPreallocation.reads_without_jax("", "tests/conftest.py")


def test_a_conftest_that_only_imports_os_gets_the_setting_after_it(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("[tool:pytest]\naddopts = -n 2\n")
    (tmp_path / "test_model.py").write_text("import jax\n")
    conftest = tmp_path / "conftest.py"
    conftest.write_text("import os\n")
    assert _check(conftest).new_source == f"import os\n\n{SETTING}\n"
