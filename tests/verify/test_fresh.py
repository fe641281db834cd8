"""Programs whose environment settings matter are verified in fresh interpreters."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.verify import Verdict, verify_file, verify_rewrite
from autoopt.verify.environment import changes_setup
from autoopt.verify.runner import run_worker
from autoopt.verify.trees import load_tree

FRESH_NOTE = "run in fresh interpreters: a rewrite changes the environment settings or imports"

X64_AFTER_IMPORT = """\
import os

import jax.numpy as jnp

os.environ["JAX_ENABLE_X64"] = "1"


def main():
    return {"x": jnp.linspace(0.0, 1.0, 8) * 3}
"""

DEVICES_AFTER_FIRST_USE = """\
import os

import jax
import jax.numpy as jnp

X = jnp.arange(8.0)
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"


def main():
    return X.reshape(jax.device_count(), -1)
"""


#: These moves change results, so AO701 labels them unsafe; `--unsafe-fixes --verify` must
#: then reject them.
UNSAFE = Settings(unsafe_fixes=True)


def test_x64_moved_above_the_import_is_not_equivalent_by_dtype(program, fast) -> None:
    report = verify_file(program(X64_AFTER_IMPORT), options=fast, settings=UNSAFE)
    [row] = report.rows
    assert (row.rule, row.verdict) == ("AO701", Verdict.NOT_EQUIVALENT)
    assert row.reason == "leaf ['x']: type float32[8] vs float64[8]"
    assert row.notes == [FRESH_NOTE]
    assert report.accepted_source == X64_AFTER_IMPORT


def test_device_count_moved_above_the_import_is_not_equivalent_by_shape(program, fast) -> None:
    report = verify_file(program(DEVICES_AFTER_FIRST_USE), options=fast, settings=UNSAFE)
    [row] = report.rows
    assert (row.rule, row.verdict) == ("AO701", Verdict.NOT_EQUIVALENT)
    assert row.reason == "leaf <root>: shape (1, 8) vs (4, 2)"
    assert row.notes == [FRESH_NOTE]


SETS_X64 = 'import os\n\nos.environ["JAX_ENABLE_X64"] = "1"\n'
THROUGH_A_MODULE = """\
import x64_settings
import jax.numpy as jnp


def main():
    return jnp.ones(3) * 2
"""


def test_a_program_setting_the_environment_through_an_import_runs_fresh(program, fast) -> None:
    """Nothing in the file shows it: the forked baseline reports the variable it set."""
    program(SETS_X64, "x64_settings.py")
    path = program(THROUGH_A_MODULE)
    float32 = THROUGH_A_MODULE.replace("jnp.ones(3)", "jnp.ones(3, dtype=jnp.float32)")
    report = verify_rewrite(path, float32, options=fast)
    [row] = report.rows
    assert report.x64
    assert row.verdict is Verdict.NOT_EQUIVALENT
    assert row.reason == "leaf <root>: type float64[3] vs float32[3]"
    assert row.notes == ["run in fresh interpreters: the program sets JAX_ENABLE_X64"]


SETS_X64_FIRST = SETS_X64 + "\nimport jax.numpy as jnp\n\n\ndef main():\n    return jnp.ones(2)\n"


@pytest.mark.parametrize(("fresh", "dtype"), [(False, "float32"), (True, "float64")])
def test_only_a_fresh_worker_honours_what_the_program_sets(
    tmp_path: Path, program, fresh: bool, dtype: str
) -> None:
    path = program(SETS_X64_FIRST)
    spec = {"mode": "run", "program": str(path), "module": "prog", "entry": None}
    spec |= {"search_path": [str(path.parent)], "instrument": True}
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent, fresh=fresh)
    assert run.ok, run.reason
    assert load_tree(run.out_dir, "outputs").leaves[0].dtype == dtype
    assert run.result["x64"] is fresh
    assert "JAX_ENABLE_X64" in run.result["environ"]


def test_a_plain_forked_run_reports_no_environment_change(tmp_path: Path, program) -> None:
    """Else every program would be verified in fresh interpreters."""
    path = program(SYNCS)
    spec = {"mode": "run", "program": str(path), "module": "prog", "entry": None}
    spec |= {"search_path": [str(path.parent)], "instrument": True}
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent)
    assert run.ok, run.reason
    assert run.result["environ"] == []


SYNCS = """\
import jax
import jax.numpy as jnp
import numpy as np

HOST = np.ones(4, np.float32)


@jax.jit
def double(x):
    return x * 2


def main():
    y = double(HOST)
    total = float(y.sum())
    return y, total
"""


def test_a_fresh_worker_still_logs_transfers_and_counts_syncs(tmp_path: Path, program) -> None:
    path = program(SYNCS)
    spec = {"mode": "run", "program": str(path), "module": "prog", "entry": None}
    spec |= {"search_path": [str(path.parent)], "instrument": True}
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent, fresh=True)
    assert run.ok, run.reason
    assert run.transfers == {"host-to-device": 1}
    assert run.result["syncs"] == {"float()": 1}
    assert run.result["compiles"] >= 1


def test_a_fresh_worker_reports_a_program_that_fails_to_load(tmp_path: Path, program) -> None:
    path = program("raise ValueError('no config')\n")
    spec = {"mode": "run", "program": str(path), "module": "prog", "entry": None}
    spec |= {"search_path": [str(path.parent)]}
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent, fresh=True)
    assert run.status == "error"
    assert run.reason == "ValueError: no config (at prog.py:1 in <module>)"


PLAIN = "import jax.numpy as jnp\nimport numpy as np\n\n\ndef f():\n    return jnp.ones(2)\n"


@pytest.mark.parametrize(
    ("rewritten", "changes"),
    [
        ("import jax\n" + PLAIN, False),  # jax is imported first either way
        ("import functools\n" + PLAIN, False),  # the standard library reads no settings
        (PLAIN.replace("return", "import torch\n    return"), False),  # not at module level
        ("import numpy as np\n" + PLAIN, True),  # numpy now loads before jax
        ('import os\nos.environ["XLA_FLAGS"] = ""\n' + PLAIN, True),
        ("from . import settings\n" + PLAIN, True),
        ('if True:\n    __import__("os").environ["JAX_ENABLE_X64"] = "1"\n' + PLAIN, True),
    ],
)
def test_what_changes_a_programs_setup(rewritten: str, changes: bool) -> None:
    assert changes_setup(PLAIN, rewritten) is changes


def test_every_ao701_fix_changes_the_setup() -> None:
    for source in (X64_AFTER_IMPORT, DEVICES_AFTER_FIRST_USE):
        result = optimize_source(source, settings=Settings(select=("AO701",), unsafe_fixes=True))
        assert [f.rule for f in result.applied] == ["AO701"]
        assert changes_setup(source, result.new_source)
