"""Settings: which rules run and which fixes apply, from the CLI and `[tool.autoopt]`."""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autoopt.model import AutooptError

# Tests and benchmarks: checked, rewritten only with --include-tests (gitignore-style).
TEST_FILES = ("tests/", "test/", "test_*.py", "*_test.py", "conftest.py", "benchmarks/")
EXECUTORS = ("local", "ray")  # where verification jobs run (autoopt/verify/executor.py)
DEFAULT_LINE_LENGTH = 88  # Ruff's and Black's
#: Which equivalent rewrites whose speed verification could not decide are kept.
INCONCLUSIVE = ("keep-safe", "keep", "drop")


@dataclass(frozen=True)
class Settings:
    """Rule selection and fix policy. Codes match by prefix: "AO2" selects AO201."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    exclude: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    rtol: float | None = None
    atol: float | None = None
    memory_budget: int | None = None  # bytes: AO601 rewrites below it are not kept (verified)
    # What is written, not what is found: left out of repr, hence of the cache key.
    include_tests: bool = field(default=False, repr=False)
    test_files: tuple[str, ...] = field(default=TEST_FILES, repr=False)
    # Set per file for a test file (workspace/testfiles.py): fixes reaching into a test
    # function's body are not applied there (api.check_context). Part of the cache key.
    test_file: bool = False
    # Where verification runs: not what is found either.
    executor: str = field(default="local", repr=False)
    ray_address: str | None = field(default=None, repr=False)
    gpus_per_job: float | None = field(default=None, repr=False)
    # How long verification may measure a file, and what an undecided speed means.
    verify_budget: float | None = field(default=None, repr=False)
    verify_inconclusive: str | None = field(default=None, repr=False)
    verify_jobs: int | None = field(default=None, repr=False)  # files verified at once (local)

    def enabled(self, rule_id: str) -> bool:
        if self.select and not any(rule_id.startswith(s) for s in self.select):
            return False
        return not any(rule_id.startswith(s) for s in self.ignore)

    def merged(self, **overrides: Any) -> Settings:
        """A copy with the given fields replaced, skipping those left as None."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


def parse_codes(text: str | None) -> tuple[str, ...] | None:
    """`"AO101, AO2"` -> `("AO101", "AO2")`; None stays None (option not given)."""
    if text is None:
        return None
    return tuple(code.strip().upper() for code in text.split(",") if code.strip())


_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT](?:i?B)?|B)?", re.IGNORECASE)
_SIZE_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_size(value: str | int) -> int:
    """`"64MiB"`, `"1GiB"`, `"512KB"` or plain bytes (`4096`) -> bytes.

    Binary multiples either way: `MB` means MiB, as memory sizes usually do.
    Raises ValueError, saying what is accepted, for anything else.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    match = _SIZE.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(
            f"{value!r} is not a size: use bytes (4096) or a number with a unit,"
            " e.g. 64MiB, 1.5GiB, 512KiB"
        )
    number, unit = match.groups()
    return int(float(number) * _SIZE_UNITS[(unit or "")[:1].upper()])


def project_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` with a pyproject.toml or a .git."""
    start = start.absolute()
    for folder in [start, *start.parents]:
        if (folder / "pyproject.toml").is_file() or (folder / ".git").exists():
            return folder
    return None


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.autoopt] table."""
    start = start.resolve()
    for folder in [start, *start.parents] if start.is_dir() else start.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "autoopt" in _read_toml(candidate).get("tool", {}):
            return candidate
    return None


@functools.lru_cache(maxsize=64)
def line_length(folder: Path) -> int:
    """The line length Ruff (else Black) uses for files in `folder`: from the nearest
    `ruff.toml`, `.ruff.toml` or `pyproject.toml` with a `[tool.ruff]` or `[tool.black]`
    table; 88, their default, where none says."""
    for candidate in [folder, *folder.parents]:
        for name in ("ruff.toml", ".ruff.toml"):
            if (candidate / name).is_file():
                return _int(_read_toml(candidate / name).get("line-length"))
        pyproject = candidate / "pyproject.toml"
        tools = _read_toml(pyproject).get("tool", {}) if pyproject.is_file() else {}
        if "ruff" in tools or "black" in tools:
            found = tools.get("ruff", {}).get("line-length")
            return _int(tools.get("black", {}).get("line-length") if found is None else found)
    return DEFAULT_LINE_LENGTH


def _int(value: object) -> int:
    return value if isinstance(value, int) and value > 0 else DEFAULT_LINE_LENGTH


def _read_toml(path: Path) -> dict:
    """The file's TOML, {} if unreadable; the parser loads only when there is a file."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def load_settings(start: Path) -> Settings:
    """Settings from the `[tool.autoopt]` table nearest to `start`, defaults if none."""
    pyproject = find_pyproject(start)
    if pyproject is None:
        return Settings()
    table = _read_toml(pyproject)["tool"]["autoopt"]
    per_file = {
        pattern: tuple(c.upper() for c in codes)
        for pattern, codes in table.get("per-file-ignores", {}).items()
    }
    budget = table.get("memory-budget")
    try:
        memory_budget = None if budget is None else parse_size(budget)
    except ValueError as exc:
        raise AutooptError(str(pyproject), f"[tool.autoopt] memory-budget: {exc}") from exc
    return Settings(
        **_executor_settings(pyproject, table),
        **_verify_settings(pyproject, table),
        select=tuple(c.upper() for c in table.get("select", ())),
        ignore=tuple(c.upper() for c in table.get("ignore", ())),
        unsafe_fixes=bool(table.get("unsafe-fixes", False)),
        exclude=tuple(table.get("exclude", ())),
        per_file_ignores=per_file,
        rtol=table.get("rtol"),
        atol=table.get("atol"),
        memory_budget=memory_budget,
        include_tests=bool(table.get("include-tests", False)),
        test_files=tuple(table.get("test-files", TEST_FILES)),
    )


def _executor_settings(pyproject: Path, table: dict) -> dict[str, Any]:
    """`executor`, `ray-address` and `gpus-per-job`, checked."""
    executor = table.get("executor", "local")
    if executor not in EXECUTORS:
        raise AutooptError(
            str(pyproject), f"[tool.autoopt] executor: {executor!r} is not one of {EXECUTORS}"
        )
    gpus = table.get("gpus-per-job")
    if gpus is not None and (isinstance(gpus, bool) or not isinstance(gpus, int | float)):
        raise AutooptError(str(pyproject), f"[tool.autoopt] gpus-per-job: {gpus!r} is not a number")
    return {"executor": executor, "ray_address": table.get("ray-address"), "gpus_per_job": gpus}


def _verify_settings(pyproject: Path, table: dict) -> dict[str, Any]:
    """`verify-budget` (seconds per file), `verify-inconclusive` and `verify-jobs`, checked."""
    budget = table.get("verify-budget")
    if budget is not None and (
        isinstance(budget, bool) or not isinstance(budget, int | float) or budget <= 0
    ):
        raise AutooptError(
            str(pyproject), f"[tool.autoopt] verify-budget: {budget!r} is not a positive number"
        )
    policy = table.get("verify-inconclusive")
    if policy is not None and policy not in INCONCLUSIVE:
        raise AutooptError(
            str(pyproject),
            f"[tool.autoopt] verify-inconclusive: {policy!r} is not one of {INCONCLUSIVE}",
        )
    jobs = table.get("verify-jobs")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise AutooptError(
            str(pyproject), f"[tool.autoopt] verify-jobs: {jobs!r} is not a positive integer"
        )
    return {"verify_budget": budget, "verify_inconclusive": policy, "verify_jobs": jobs}
