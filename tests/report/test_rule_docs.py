"""Every rule's documentation: four sections in order, and a Fix safety naming authorities."""

from __future__ import annotations

import pytest

from autoopt.report.rule_docs import SECTIONS, doc_problems, examples_path
from autoopt.rules import ALL_RULES
from autoopt.rules.base import Rule


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.id)
def test_rule_doc_has_the_four_sections_and_names_its_authorities(rule: type[Rule]) -> None:
    assert doc_problems(rule) == []


def test_doc_problems_finds_a_missing_section_and_a_missing_authority() -> None:
    class Bare(Rule):
        """
        ## What it does
        Something.

        ## Fix safety
        Proven by `analysis/facts/nowhere.py`.
        """

        id = "AO999"
        INVALID = ALL_RULES[0].INVALID

    problems = doc_problems(Bare)
    assert any("sections" in p for p in problems)
    assert any("nowhere.py" in p and "does not exist" in p for p in problems)
    assert list(SECTIONS) == [
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## Fix safety",
    ]


def test_examples_path_names_a_package_of_forms() -> None:
    paths = {rule.id: examples_path(rule) for rule in ALL_RULES}
    assert paths["AO101"] == "autoopt/rules/examples/ao101_missing_jit.py"
    assert paths["AO103"] == "autoopt/rules/examples/ao103_compiled_loop_step/"
