"""Tiny programs and fast options for the verification tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.verify import VerifyOptions

# Few repeats keep the suite short; the verdicts tested here are far from the thresholds.
FAST = VerifyOptions(timeout=60, repeats=1, rounds=9, warmup=2, bench_budget_s=5)


@pytest.fixture
def fast() -> VerifyOptions:
    return FAST


@pytest.fixture
def program(tmp_path: Path):
    """Write a program file into a fresh directory and return its path."""

    def write(source: str, name: str = "prog.py") -> Path:
        path = tmp_path / name
        path.write_text(source)
        return path

    return write
