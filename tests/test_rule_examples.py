"""Every rule's VALID and INVALID examples, run as tests (Fixit style)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from autoopt.report.rule_docs import DOCS, README, page_name, render, with_rules_table
from autoopt.rules import ALL_RULES
from autoopt.rules.base import Invalid, Rule, Valid

VALID = [(r, i, c) for r in ALL_RULES for i, c in enumerate(r.VALID)]
INVALID = [(r, i, c) for r in ALL_RULES for i, c in enumerate(r.INVALID)]


def _run(rule: type[Rule], code: str, case: Valid | Invalid, tmp_path: Path):
    """The rule on `code`; a case with project files runs as the file `case.path` there."""
    settings = Settings(select=(rule.id,), unsafe_fixes=True)
    if not case.files:
        return optimize_source(code, settings=settings)
    for name, text in {**case.files, case.path: code}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return optimize_source(code, path=str(tmp_path / case.path), settings=settings)


@pytest.mark.parametrize(("rule", "index", "case"), VALID, ids=lambda v: getattr(v, "id", str(v)))
def test_valid(rule: type[Rule], index: int, case: Valid, tmp_path: Path) -> None:
    result = _run(rule, case.code, case, tmp_path)
    assert [f.message for f in result.findings] == [], case.why
    assert result.new_source == case.code


@pytest.mark.parametrize(("rule", "index", "case"), INVALID, ids=lambda v: getattr(v, "id", str(v)))
def test_invalid(rule: type[Rule], index: int, case: Invalid, tmp_path: Path) -> None:
    result = _run(rule, case.code, case, tmp_path)
    assert result.findings, "the rule did not fire"
    first = result.findings[0]
    assert first.rule == rule.id
    assert first.fix is case.fix, first.message
    assert case.message in first.message
    expected = case.expected if case.expected is not None else case.code
    assert case.fix is not Applicability.NONE or case.expected is None
    assert result.new_source == expected
    cst.parse_module(result.new_source)
    again = _run(rule, result.new_source, case, tmp_path)
    assert again.new_source == result.new_source, "the fix is not idempotent"


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.id)
def test_rule_has_enough_examples(rule: type[Rule]) -> None:
    fires = [c for c in rule.INVALID if c.fix is not Applicability.NONE]
    assert len(fires) >= 6, "at least 6 must-fire cases"
    assert len(rule.VALID) + len(rule.INVALID) - len(fires) >= 8, "at least 8 must-not-fire cases"
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Fix safety"):
        assert section in rule.doc()


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.id)
def test_rule_page_matches_the_docstring(rule: type[Rule]) -> None:
    """docs/rules is generated: `python -m autoopt.report.rule_docs` after a docstring edit."""
    page = DOCS / page_name(rule)
    assert page.read_text(encoding="utf-8") == render(rule)


def test_readme_rules_table_is_generated() -> None:
    """The README's rules table is generated: `python -m autoopt.report.rule_docs`."""
    readme = README.read_text(encoding="utf-8")
    assert readme == with_rules_table(readme)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.id)
def test_rule_documents_one_generated_example(rule: type[Rule]) -> None:
    """One INVALID case, with a rewrite, is flagged `doc=True`; the docstring has no example."""
    documented = [case for case in rule.INVALID if case.doc]
    assert len(documented) == 1, "flag exactly one INVALID case doc=True"
    assert documented[0].expected is not None
    assert "## Example" not in (rule.__doc__ or ""), "the example is generated, not written"


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.id)
def test_rule_states_its_facts(rule: type[Rule]) -> None:
    assert rule.severity in ("warning", "information")
    assert rule.goal in ("speed", "memory")
    assert rule.fixes and "|" not in rule.fixes, "one README table cell"
