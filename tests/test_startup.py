"""What each entry point imports, checked in a fresh interpreter (issue 13: fast start-up)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import autoopt
import autoopt.verify

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "libcst",
    "autoopt.api",
    "autoopt.rules",
    "rich",
    "networkx",
    "typer",
    "pathspec",
    "pydantic",
)
PROGRAM = """import jax
import jax.numpy as jnp


def step(x):
    return x * 2


x = jnp.ones(3)
for _ in range(10):
    x = step(x)
"""


def run_python(code: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )


def loaded_after(statements: str, cwd: Path = ROOT) -> list[str]:
    """Which of HEAVY a fresh interpreter holds after running `statements`."""
    code = f"{statements}\nimport sys\nprint(repr([m for m in {HEAVY!r} if m in sys.modules]))"
    return eval(run_python(code, cwd).stdout.splitlines()[-1])


def test_import_autoopt_loads_nothing_heavy() -> None:
    assert loaded_after("import autoopt\nassert autoopt.__version__") == []


@pytest.mark.parametrize(
    "module",
    ["autoopt.verify.worker", "autoopt.verify.forkserver", "autoopt.verify.bench"],
)
def test_the_verification_worker_imports_neither_libcst_nor_the_rules(module: str) -> None:
    assert loaded_after(f"import {module}") == []


def test_analysis_does_not_load_networkx_rich_or_the_cli() -> None:
    code = f"from autoopt import check_source\nassert check_source({PROGRAM!r})[1]"
    assert loaded_after(code) == ["libcst", "autoopt.api", "autoopt.rules"]


def check_statements(file: str, code: int) -> str:
    """`autoopt check FILE` as the console script runs it, expecting exit `code`."""
    return (
        "import sys\n"
        "from autoopt.frontends.cli import main\n"
        f"sys.argv = ['autoopt', 'check', '--no-cache', '--no-progress', {file!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exit:\n"
        f"    assert exit.code == {code}"
    )


def test_check_of_a_clean_file_loads_no_rich_networkx_or_pathspec(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("import jax.numpy as jnp\n\nx = jnp.ones(3)\n")
    statements = check_statements("clean.py", 0)
    assert loaded_after(statements, tmp_path) == ["libcst", "autoopt.api", "autoopt.rules", "typer"]


def test_check_with_fixes_loads_neither_rich_pathspec_nor_pydantic(tmp_path: Path) -> None:
    """Default test-file patterns need no pathspec; typer below 0.29 parses without pydantic;
    the summary table is drawn without rich."""
    (tmp_path / "model.py").write_text(PROGRAM)
    loaded = loaded_after(check_statements("model.py", 1), tmp_path)
    assert loaded == ["libcst", "autoopt.api", "autoopt.rules", "typer"]


NEVER_BY_CHECK = (
    "jax",
    "autoopt.verify",
    "autoopt.frontends.lsp",
    "autoopt.frontends.mcp",
    "mcp",
    "ray",
    "autoopt.report.sarif",
    "autoopt.rules.examples",  # the rules' documented cases: read by tests and docs only
)
PIPELINE = ("libcst", "autoopt.api", "autoopt.rules", "autoopt.analysis", "rich", "networkx")


def imported_by(args: list[str], cwd: Path, code: int) -> set[str]:
    """The modules `autoopt ARGS` (the console script's `main`) holds at exit, which was
    `code`; a small runner in a fresh interpreter prints `sys.modules` from an exit hook."""
    runner = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(repr(sorted(sys.modules)), file=sys.__stderr__))\n"
        "from autoopt.frontends.cli import main\n"
        f"sys.argv = ['autoopt', *{args!r}]\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AUTOOPT_CACHE_DIR": str(cwd / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", runner], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == code, done.stderr
    return set(eval(done.stderr.splitlines()[-1]))


def top_level(names: set[str], wanted: tuple[str, ...]) -> list[str]:
    """Which of `wanted` (packages or modules) `names` holds, itself or a submodule."""
    return [w for w in wanted if any(n == w or n.startswith(f"{w}.") for n in names)]


def test_check_of_a_small_file_never_imports_jax_verify_lsp_ray_or_sarif(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(PROGRAM)
    loaded = imported_by(["check", "--no-progress", "model.py"], tmp_path, 1)
    assert top_level(loaded, NEVER_BY_CHECK) == []
    assert top_level(loaded, PIPELINE) == [
        "libcst",
        "autoopt.api",
        "autoopt.rules",
        "autoopt.analysis",
    ]


def test_check_answered_by_the_cache_imports_no_pipeline(tmp_path: Path) -> None:
    """The result cache is read before the analysis loads: a hit loads none of it."""
    (tmp_path / "model.py").write_text(PROGRAM)
    imported_by(["check", "--no-progress", "model.py"], tmp_path, 1)
    loaded = imported_by(["check", "--no-progress", "--format", "json", "model.py"], tmp_path, 1)
    assert top_level(loaded, (*NEVER_BY_CHECK, *PIPELINE)) == []


@pytest.mark.parametrize(
    ("args", "expected"), [(["--version"], []), (["check", "--help"], ["rich"])]
)
def test_version_and_help_import_no_pipeline(
    args: list[str], expected: list[str], tmp_path: Path
) -> None:
    """Only typer's help, drawn with rich, loads rich."""
    loaded = imported_by(args, tmp_path, 0)
    assert top_level(loaded, (*NEVER_BY_CHECK, *PIPELINE)) == expected


@pytest.mark.parametrize(
    "command", ["check", "rewrite", "verify", "rules", "explain", "lsp", "mcp"]
)
def test_a_named_command_is_built_alone(command: str) -> None:
    """Typer builds the options of every command it holds: `autoopt check` holds one."""
    from typer.main import get_command

    from autoopt.frontends.cli import app_for

    group = get_command(app_for([command, "--help"]))
    assert list(group.commands) == [command]
    assert [p.name for p in group.params] == ["version"]


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["--help", "check"], ["nope"]])
def test_anything_else_gets_the_whole_app(args: list[str]) -> None:
    from autoopt.frontends.cli import app, app_for

    assert app_for(args) is app


def test_every_public_name_resolves() -> None:
    for package in (autoopt, autoopt.verify):
        assert all(getattr(package, name) is not None for name in package.__all__)
        assert set(package.__all__) <= set(dir(package))
    from autoopt import check_source

    assert check_source is autoopt.api.check_source


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'autoopt' has no attribute 'nothing'"):
        autoopt.nothing  # noqa: B018
    with pytest.raises(ImportError):
        from autoopt.verify import nothing  # noqa: F401


def test_version_comes_from_its_own_module() -> None:
    from autoopt._version import __version__

    assert autoopt.__version__ == __version__
    done = subprocess.run(
        [sys.executable, "-m", "autoopt", "--version"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, f"autoopt {__version__}\n")


def test_the_package_metadata_reads_the_version_module() -> None:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["project"]["dynamic"] == ["version"]
    version = config["tool"]["setuptools"]["dynamic"]["version"]
    assert version == {"attr": "autoopt._version.__version__"}
