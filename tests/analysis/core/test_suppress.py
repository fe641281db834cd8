"""`# autoopt: ignore` comments."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.suppress import ALL, is_suppressed, suppressions, with_codes

SOURCE = """x = 1  # autoopt: ignore
y = 2  # autoopt: ignore[AO201, ao3]
s = "# autoopt: ignore"
z = 3  #autoopt:ignore[AO101]
"""


def test_only_real_comments_count() -> None:
    assert suppressions(SOURCE) == {
        1: ALL,
        2: frozenset({"AO201", "AO3"}),  # codes are upper-cased
        4: frozenset({"AO101"}),
    }


@pytest.mark.parametrize("source", ["x = (\n", "x = 1\n", "x = 1  # autoopt\n"])
def test_nothing_is_suppressed_without_a_readable_comment(source: str) -> None:
    assert suppressions(source) == {}


@pytest.mark.parametrize(
    ("rule", "lines", "suppressed"),
    [
        ("AO101", range(1, 2), True),  # everything
        ("AO301", range(2, 3), True),  # by prefix
        ("AO201", range(2, 3), True),
        ("AO101", range(2, 3), False),
        ("AO101", range(3, 5), True),  # any line of the statement
        ("AO102", range(4, 5), False),
        ("AO101", range(5, 9), False),
    ],
)
def test_is_suppressed(rule: str, lines: range, suppressed: bool) -> None:
    assert is_suppressed(rule, lines, suppressions(SOURCE)) is suppressed


@pytest.mark.parametrize(
    ("comment", "codes", "expected"),
    [
        ("", {"AO201", "AO101"}, "  # autoopt: ignore[AO101,AO201]"),
        ("# the steps", {"AO103"}, "# the steps  # autoopt: ignore[AO103]"),
        ("# autoopt: ignore[AO102]", {"AO101"}, "# autoopt: ignore[AO102,AO101]"),
        (
            "# autoopt: ignore[AO201, ao3] why",
            {"AO101", "AO3"},
            "# autoopt: ignore[AO201, ao3, AO101] why",
        ),
        ("#autoopt:ignore[AO101 ]", {"AO101"}, "#autoopt:ignore[AO101 ]"),
        ("# autoopt: ignore", {"AO101"}, "# autoopt: ignore"),
    ],
)
def test_with_codes_merges_into_the_comment_as_spelled(
    comment: str, codes: set[str], expected: str
) -> None:
    assert with_codes(comment, codes) == expected
    assert suppressions(f"x = 1  {expected.strip()}\n")[1] >= (
        ALL if expected.endswith("ignore") else frozenset(codes)
    )
