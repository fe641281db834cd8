"""Long lines of generated code wrapped as Ruff's formatter wraps them."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.rewrite.wrap import INNER, STATEMENT, VALUE, expression, render, same_code


def wrapped(code: str, width: int, where: str = STATEMENT) -> str:
    return render(expression(cst.parse_expression(code), where), width, "    ")


@pytest.mark.parametrize(
    ("code", "width", "expected"),
    [
        pytest.param("f(a, b)", 20, "f(a, b)", id="fits"),
        pytest.param(
            "compute(alpha, beta, gamma)",
            24,
            "compute(\n    alpha, beta, gamma\n)",
            id="arguments-on-their-own-line",
        ),
        pytest.param(
            "compute(alpha, beta, gamma)",
            12,
            "compute(\n    alpha,\n    beta,\n    gamma,\n)",
            id="one-argument-a-line-with-a-trailing-comma",
        ),
        pytest.param(
            "outer(inner(alpha, beta))",
            22,
            "outer(\n    inner(alpha, beta)\n)",
            id="the-outer-call-breaks-first",
        ),
        pytest.param(
            "(alpha, beta, gamma)",
            12,
            "(\n    alpha,\n    beta,\n    gamma,\n)",
            id="a-tuple-one-element-a-line",
        ),
        pytest.param(
            "f(ggggg(aaaa, bbbb))",
            12,
            "f(\n    ggggg(\n        aaaa,\n        bbbb,\n    )\n)",
            id="no-trailing-comma-after-a-sole-argument",
        ),
        pytest.param("(alpha,)", 6, "(\n    alpha,\n)", id="a-one-tuple-keeps-its-comma"),
        pytest.param(
            "{'key': value, 'other': thing}",
            20,
            "{\n    'key': value,\n    'other': thing,\n}",
            id="a-dict",
        ),
        pytest.param(
            "f(x for x in xs if x)",
            12,
            "f(\n    x\n    for x in xs\n    if x\n)",
            id="a-lone-generator-gets-no-comma",
        ),
        pytest.param(
            "f(*args, key=value)",
            12,
            "f(\n    *args,\n    key=value,\n)",
            id="starred-and-keyword-arguments",
        ),
        pytest.param(
            "check(alpha) == check(beta)",
            24,
            "check(alpha) == check(\n    beta\n)",
            id="operands-with-brackets-break-inside-them",
        ),
        pytest.param(
            "check(alpha) == limit + 1",
            20,
            "check(\n    alpha\n) == limit + 1",
            id="a-statement-of-its-own-gains-no-parentheses",
        ),
        pytest.param(
            "make(a)(first, second)",
            18,
            "make(a)(\n    first, second\n)",
            id="the-last-call-breaks",
        ),
        pytest.param(
            "g(lambda x: x + 1, y)", 20, "g(\n    lambda x: x + 1,\n    y,\n)", id="a-lambda-whole"
        ),
        pytest.param(
            "f(check(alpha) == limit + 1, b)",
            20,
            "f(\n    check(alpha)\n    == limit + 1,\n    b,\n)",
            id="inside-brackets-an-operation-breaks-before-its-operator",
        ),
    ],
)
def test_wrap(code: str, width: int, expected: str) -> None:
    """Each expected text is what `ruff format --line-length <width>` prints."""
    assert wrapped(code, width) == expected
    assert same_code(code, expected)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("check(alpha) == limit + 1", "(\n    check(alpha)\n    == limit + 1\n)"),
        ("check(alpha) == check(beta)", "check(alpha) == check(\n    beta\n)"),
    ],
)
def test_a_value_is_parenthesized_unless_its_last_operand_has_brackets(
    code: str, expected: str
) -> None:
    """As `x = ...`, `return ...` or `if ...:` would be."""
    assert wrapped(code, 24 if "beta" in code else 20, VALUE) == expected


def test_an_inner_expression_is_not_parenthesized() -> None:
    assert wrapped("ff(alpha == limit + 1)", 18) == "ff(\n    alpha\n    == limit + 1\n)"
    assert wrapped("alpha == limit + 1", 14, INNER) == "alpha\n== limit + 1"


def test_a_trailing_comment_counts_against_the_width() -> None:
    doc = ["x = ", expression(cst.parse_expression("f(a)")), "  # note"]
    assert render(doc, 12, "    ") == "x = f(\n    a\n)  # note"


def test_same_code_tells_a_changed_tree() -> None:
    assert same_code("f(a, b)", "f(\n    a,\n    b,\n)")
    assert not same_code("(a)", "(a,)")
    assert not same_code("f(a", "f(a)")
