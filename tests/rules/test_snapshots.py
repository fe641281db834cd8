"""Snapshots of each rule's findings and rewrites over its fixtures (as Ruff's fixtures).

`tests/rules/fixtures/<ID>.py` (or each `.py` file of `tests/rules/fixtures/<ID>/`) is
checked with that rule only; `tests/rules/snapshot.py` renders the findings, the default
rewrite and the `--unsafe-fixes` rewrite, compared with `tests/rules/snapshots/<ID>.txt`
(or `<ID>/<file>.txt`). After an intended change of behaviour regenerate them with
`AUTOOPT_UPDATE_SNAPSHOTS=1 python -m pytest tests/rules/test_snapshots.py` and review
the diff. Each fixture is analysed in a copy under a temporary folder, so that the
project around it (this repository's pyproject.toml, other fixtures) cannot change what
the rule sees.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import libcst as cst
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Result
from autoopt.rules import ALL_RULES
from tests.rules.snapshot import render
from tests.snapshots import assert_snapshot

FIXTURES = Path(__file__).parent / "fixtures"
SNAPSHOTS = Path(__file__).parent / "snapshots"
RULES = [rule.id for rule in ALL_RULES]


def _cases() -> list[tuple[str, str]]:
    """(rule id, fixture file relative to FIXTURES), for every fixture file."""
    cases = []
    for rule in RULES:
        if (FIXTURES / f"{rule}.py").exists():
            cases.append((rule, f"{rule}.py"))
        for path in sorted((FIXTURES / rule).rglob("*.py")):
            cases.append((rule, path.relative_to(FIXTURES).as_posix()))
    return cases


CASES = _cases()


def _run(rule: str, code: str, path: Path, unsafe: bool) -> Result:
    settings = Settings(select=(rule,), unsafe_fixes=unsafe)
    return optimize_source(code, path=str(path), settings=settings)


@pytest.mark.parametrize("rule", RULES)
def test_every_rule_has_a_fixture(rule: str) -> None:
    assert any(r == rule for r, _ in CASES), f"no tests/rules/fixtures/{rule}.py or {rule}/"


@pytest.mark.parametrize(("rule", "name"), CASES, ids=[name for _, name in CASES])
def test_fixture_snapshot(rule: str, name: str, tmp_path: Path) -> None:
    top = name.split("/")[0]
    source = FIXTURES / top
    if source.is_dir():
        shutil.copytree(source, tmp_path / top)
    else:
        shutil.copy(source, tmp_path / top)
    path = tmp_path / name
    code = path.read_text(encoding="utf-8")
    safe, unsafe = _run(rule, code, path, False), _run(rule, code, path, True)
    assert [f.rule for f in safe.findings] == [rule] * len(safe.findings)
    snapshot = SNAPSHOTS / Path(name).with_suffix(".txt")
    assert_snapshot(snapshot, render(name, safe, unsafe), f"the {rule} snapshot of {name}")
    for result, is_unsafe in ((safe, False), (unsafe, True)):
        if not result.changed:
            continue
        cst.parse_module(result.new_source)
        ast.parse(result.new_source)
        path.write_text(result.new_source, encoding="utf-8")
        again = _run(rule, result.new_source, path, is_unsafe)
        assert again.new_source == result.new_source, (
            f"a second {'--unsafe-fixes ' if is_unsafe else ''}rewrite of {name} changes it"
        )
        path.write_text(code, encoding="utf-8")
