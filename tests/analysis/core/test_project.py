"""Calls into other files of the same project are followed into their own analysis."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from autoopt.workspace.cache import ResultCache, key

SIM = """\
import jax.numpy as jnp

from physics import laplacian


def step(u, dt):
    return u + dt * laplacian(u)


u = jnp.ones(8)
for _ in range(10):
    u = step(u, 0.1)
"""
PURE = "import jax.numpy as jnp\n\n\ndef laplacian(u):\n    return jnp.roll(u, 1) - 2 * u\n"
PRINTS = PURE.replace("    return", '    print("step")\n    return')
HOST_RNG = PURE.replace("    return", "    u = u + np.random.normal()\n    return").replace(
    "import jax", "import numpy as np\nimport jax"
)
JIT = Settings(select=("AO101",))


def project(tmp_path: Path, physics: str, marker: str = "pyproject.toml") -> Path:
    (tmp_path / marker).write_text("")
    (tmp_path / "physics.py").write_text(physics)
    sim = tmp_path / "sim.py"
    sim.write_text(SIM)
    return sim


@pytest.mark.parametrize(
    ("physics", "fix", "message"),
    [
        (PURE, Applicability.SAFE, "add `@jax.jit`"),
        (PRINTS, Applicability.NONE, "calls `physics.laplacian`, which prints"),
        (HOST_RNG, Applicability.NONE, "calls `physics.laplacian`, which draws host random"),
    ],
)
def test_a_helper_of_another_file_is_judged_by_its_own_body(
    tmp_path: Path, physics: str, fix: Applicability, message: str
) -> None:
    sim = project(tmp_path, physics)
    (finding,) = optimize_source(SIM, path=str(sim), settings=JIT).findings
    assert finding.fix is fix and message in finding.message


UNSEEN = "calls `physics.laplacian`, code autoopt cannot see"


def test_without_a_file_the_helper_stays_unknown() -> None:
    (finding,) = optimize_source(SIM, settings=JIT).findings
    assert finding.fix is Applicability.NONE and UNSEEN in finding.message


def test_the_files_read_are_dependencies_of_the_result(tmp_path: Path) -> None:
    sim = project(tmp_path, PURE)
    result = optimize_source(SIM, path=str(sim), settings=JIT)
    assert list(result.dependencies) == [str(tmp_path / "physics.py")]


def test_a_cached_result_is_dropped_when_a_dependency_changes(tmp_path: Path) -> None:
    sim = project(tmp_path, PURE)
    cache = ResultCache(tmp_path / "cache.json")
    entry = key(JIT, SIM.encode())
    cache.put(entry, optimize_source(SIM, path=str(sim), settings=JIT))
    assert cache.get(entry) is not None
    (tmp_path / "physics.py").write_text(PRINTS)
    assert cache.get(entry) is None


def test_installed_packages_and_files_outside_the_project_are_not_read(tmp_path: Path) -> None:
    inner = tmp_path / "app"
    inner.mkdir()
    (tmp_path / "physics.py").write_text(PURE)  # above the project root: not read
    (inner / "pyproject.toml").write_text("")
    (inner / "sim.py").write_text(SIM)
    (finding,) = optimize_source(SIM, path=str(inner / "sim.py"), settings=JIT).findings
    assert finding.fix is Applicability.NONE and UNSEEN in finding.message
