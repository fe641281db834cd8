"""The pytest configuration of a test folder: does it run the tests in several processes?

pytest reads the first of `pytest.ini`, `.pytest.ini`, `pyproject.toml`
(`[tool.pytest.ini_options]` or `[tool.pytest]`), `tox.ini` (`[pytest]`) and
`setup.cfg` (`[tool:pytest]`) that has a pytest section, from the folder of the
test file upward (here: up to the project folder). pytest-xdist starts worker
processes for `-n N` / `--numprocesses N` in `addopts` (`auto` or `logical`: one per
CPU). pytest-env's `env` option sets environment variables for the tests. Every
configuration file read becomes a dependency of the module that asks.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import read_text, root
from autoopt.analysis.facts.jax_reach import reaches_jax

Options = tuple[Path, list[str], tuple[tuple[str, str], ...]]

_FILES = (
    ("pytest.ini", "pytest"),
    (".pytest.ini", "pytest"),
    ("pyproject.toml", ""),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)
_NUMPROCESSES = ("-n", "--numprocesses")
_NOT_TESTS = {"__pycache__", "node_modules", "site-packages", "build", "dist"}


@dataclass(frozen=True)
class Xdist:
    """pytest-xdist workers: where they are configured and how many (None: one per CPU)."""

    config: Path
    option: str  # as written, e.g. `-n 4`
    workers: int | None
    env: tuple[tuple[str, str], ...]  # pytest-env settings


def xdist(ctx: ModuleContext) -> Xdist | None:
    """The xdist workers the pytest configuration above `ctx`'s file starts, if several."""
    options = pytest_options(ctx)
    if options is None:
        return None
    config, addopts, env = options
    option, value = _numprocesses(addopts)
    if value in ("auto", "logical"):
        workers = None
    elif value.isdigit() and int(value) > 1:
        workers = int(value)
    else:
        return None
    return Xdist(config, option, workers, env)


def pytest_options(
    ctx: ModuleContext,
) -> tuple[Path, list[str], tuple[tuple[str, str], ...]] | None:
    """The configuration file that holds the pytest section for `ctx`'s file, its
    `addopts` as arguments and its pytest-env settings."""
    top = root(ctx.path)
    if top is None:
        return None
    here = Path(ctx.path).resolve().parent
    for folder in [here, *here.parents]:
        for name, section in _FILES:
            path = folder / name
            text = read_text(ctx, path) if path.is_file() else None
            table = _section(text, name, section) if text is not None else None
            if table is not None:
                return path, _arguments(table.get("addopts", "")), _env(table.get("env", ""))
        if folder == top:
            return None
    return None


def _section(text: str, name: str, section: str) -> dict | None:
    """The pytest options of one configuration file, or None when it has none.

    The parsers load here: most files analysed have no pytest configuration to read.
    """
    if name == "pyproject.toml":
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib

        try:
            tool = tomllib.loads(text).get("tool", {}).get("pytest")
        except tomllib.TOMLDecodeError:
            return None
        if not isinstance(tool, dict):
            return None
        options = tool.get("ini_options", tool)
        return options if isinstance(options, dict) else None
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return dict(parser[section]) if parser.has_section(section) else None


def _arguments(value: object) -> list[str]:
    words = value if isinstance(value, list) else [str(value)]
    found = []
    for word in map(str, words):
        try:
            found += shlex.split(word)
        except ValueError:
            found += word.split()
    return found


def _numprocesses(arguments: list[str]) -> tuple[str, str]:
    """The last `-n`/`--numprocesses` option, as written, and its value ("" if none)."""
    option, value = "", ""
    for index, word in enumerate(arguments):
        name, equals, rest = word.partition("=")
        if name in _NUMPROCESSES:
            following = arguments[index + 1] if index + 1 < len(arguments) else ""
            value = rest if equals else following
            option = word if equals else f"{word} {following}"
        elif word.startswith("-n") and not word.startswith("--"):
            option, value = word, word[2:]
        elif word == "no:xdist":
            return "", ""
    return option, value


def _env(value: object) -> tuple[tuple[str, str], ...]:
    """pytest-env's `KEY=VALUE` lines (a list in TOML), flags like `D:` dropped."""
    lines = value if isinstance(value, list) else str(value).splitlines()
    settings = []
    for line in map(str, lines):
        key, equals, setting = line.strip().partition("=")
        key = key.rpartition(":")[2].strip()
        if equals and key:
            settings.append((key, setting.strip()))
    return tuple(settings)


def outermost_conftest(ctx: ModuleContext) -> bool:
    """Whether `ctx` is a conftest.py with no other conftest.py above it in the project
    (the one pytest loads first, before any test module of its folder)."""
    if Path(ctx.path).name != "conftest.py":
        return False
    here, top = Path(ctx.path).resolve(), root(ctx.path)
    if top is None or not here.is_relative_to(top):
        return False
    above = [f for f in here.parents[1:] if f.is_relative_to(top)]
    return not any((folder / "conftest.py").is_file() for folder in above)


def suite_reaches_jax(ctx: ModuleContext) -> bool:
    """Whether `ctx` or a test file in its folder imports jax (through project modules
    too); test files that name jax are read first, the files read are dependencies."""
    if reaches_jax(ctx):
        return True
    files = list(_test_files(Path(ctx.path).resolve().parent))
    naming = [path for path in files if _names_jax(path)]
    return any(reaches_jax(ctx, path) for path in [*naming, *(p for p in files if p not in naming)])


def _test_files(folder: Path) -> Iterator[Path]:
    """pytest's default test files (`test_*.py`, `*_test.py`) under `folder`."""
    for current, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f not in _NOT_TESTS)
        for name in sorted(files):
            if name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")):
                yield Path(current) / name


def _names_jax(path: Path) -> bool:
    try:
        return b"jax" in path.read_bytes()
    except OSError:
        return False
