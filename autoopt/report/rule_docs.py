"""Render each rule's docstring to docs/rules/<id>-<name>.md (run as a module)."""

from __future__ import annotations

import sys
from pathlib import Path

from autoopt.rules import ALL_RULES
from autoopt.rules.base import Rule

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def page_name(rule: type[Rule]) -> str:
    return f"{rule.id}-{rule.name}.md"


def render(rule: type[Rule]) -> str:
    """The page: title, summary, the docstring, and a pointer to the examples."""
    return (
        f"# {rule.id} {rule.name}\n\n"
        f"{rule.summary}.\n\n"
        f"{rule.doc()}\n\n"
        "## Examples run as tests\n"
        f"`{rule.__module__}` holds {len(rule.INVALID)} cases where the rule fires "
        f"and {len(rule.VALID)} where it must not; `tests/test_rule_examples.py` runs them.\n"
        f"`autoopt explain {rule.id}` prints this page.\n"
    )


def main() -> int:
    DOCS.mkdir(parents=True, exist_ok=True)
    for rule in ALL_RULES:
        (DOCS / page_name(rule)).write_text(render(rule), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
