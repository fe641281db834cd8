"""The rounding idioms XLA folds away, and the module-wide premise they fail."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import dependencies
from autoopt.analysis.facts.rounding_tricks import idioms, premise
from tests.analysis.helpers import HEADER, context


def _found(code: str) -> list[tuple[str, float, bool]]:
    ctx = context(code, HEADER)
    return [(ctx.code(i.node), i.value, i.paired) for i in idioms(ctx)]


MAGIC = 12582912.0


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("q = (t + 12582912.0) - 12582912.0\n", [("(t + 12582912.0) - 12582912.0", MAGIC, True)]),
        ("M = 1.5 * 2**23\nq = (t + M) - M\n", [("(t + M) - M", MAGIC, True)]),
        ("M = 2.0**52 * 1.5\nq = (t - M) + M\n", [("(t - M) + M", 2.0**52 * 1.5, True)]),
        ("M = jnp.float32(12582912.0)\nq = t + M\n", [("t + M", MAGIC, False)]),
        ("M = float(2**23)\nq = M - t\n", [("M - t", 2.0**23, False)]),
        ("M: float = 1.5 * 2**23\nq = jnp.add(t, M)\n", [("jnp.add(t, M)", MAGIC, False)]),
        ("def f(t):\n    m = 1.5 * 2**23\n    t += m\n    return t\n", [("t += m", MAGIC, False)]),
        # one half alone: `encode` adds, `decode` (another program) subtracts
        ("M = 1.5 * 2**23\ndef encode(t):\n    return t + M\n", [("t + M", MAGIC, False)]),
        ("q = x + 4194304.0\n", [("x + 4194304.0", 2.0**22, False)]),  # 2**22: the least
        ("y = x + 0.0\n", [("x + 0.0", 0.0, False)]),
        ("y = 0.0 + x\n", [("0.0 + x", 0.0, False)]),
        ("x += 0.\n", [("x += 0.", 0.0, False)]),
    ],
)
def test_idioms_found(code: str, found: list[tuple[str, float, bool]]) -> None:
    assert _found(code) == found


@pytest.mark.parametrize(
    "code",
    [
        "y = x + 1.0\n",
        "y = x + 4194303.0\n",  # under 2**22: float32 keeps fraction bits
        "y = x - 2**22\n",  # an integer: exact integer arithmetic, not the float trick
        "y = x + 12582912\n",
        "y = x + (3 << 22)\n",
        "y = x - 0.0\n",  # IEEE-exact: -0.0 - 0.0 is -0.0
        "y = x + 0\n",
        "y = x * 12582912.0\n",
        "y = x + float('inf')\n",
        "M = compute()\ny = x + M\n",
        "y = jnp.multiply(x, 12582912.0)\n",
    ],
)
def test_idioms_not_found(code: str) -> None:
    assert _found(code) == []


def test_a_name_with_several_bindings_counts_if_any_is_a_rounding_constant() -> None:
    assert _found("if big:\n    M = 1.5 * 2**23\nelse:\n    M = 1.0\ny = x + M\n") == [
        ("x + M", MAGIC, False)
    ]


@pytest.mark.parametrize(
    ("code", "doubt"),
    [
        (
            "M = 1.5 * 2**23\ndef f(t):\n    return (t + M) - M\n",
            "line 6 rounds by adding and subtracting `M` (1.5 * 2**23): XLA folds `(t + C) - C` "
            "to `t`, so compiled code would not round",
        ),
        (
            "def decode(code):\n    return code - 4503599627370496.0\n",
            "line 5 rounds by subtracting `4503599627370496.0` (2**52): XLA folds `(t + C) - C` "
            "to `t`, so compiled code would not round",
        ),
        (
            "def f(t):\n    return jnp.add(t, 6291456.0)\n",
            "line 5 rounds by adding `6291456.0` (1.5 * 2**22): XLA folds `(t + C) - C` to `t`, "
            "so compiled code would not round",
        ),
        (
            "def tidy(x):\n    return jnp.round(x, 3) + 0.0\n",
            "line 5 adds `0.0`, which turns `-0.0` into `0.0`: XLA folds `x + 0.0` to `x`, so "
            "compiled code would keep `-0.0`",
        ),
        ("def f(t):\n    return (t + 1.0) - 1.0\n", None),
    ],
)
def test_the_premise_names_the_first_idiom(code: str, doubt: str | None) -> None:
    assert premise(context(code, HEADER)) == ([doubt] if doubt else [])


def test_a_derived_module_answers_with_its_origin_lines() -> None:
    ctx = context("M = 1.5 * 2**23\n\n\ndef f(t):\n    return t + M\n", HEADER)
    derived = ctx.derived(ctx.module.with_changes(body=ctx.module.body[3:]))
    assert premise(derived) == premise(ctx)
    assert premise(ctx)[0].startswith("line 8 rounds by adding `M`")


PROJECT = {
    "pyproject.toml": "",
    "app/__init__.py": "",
    "app/codec.py": "MAGIC = 1.5 * 2**23\n\n\ndef encode(t):\n    return t + MAGIC\n",
    "app/middle.py": "from app.codec import encode\n\n\ndef wrap(t):\n    return encode(t)\n",
    "app/plain.py": "def scale(t):\n    return t * 2.0\n",
}


def _context(tmp_path: Path, code: str) -> ModuleContext:
    for name, text in {**PROJECT, "app/main.py": code}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return ModuleContext(str(tmp_path / "app/main.py"), code, cst.parse_module(code))


@pytest.mark.parametrize(
    ("code", "module"),
    [
        ("from app.codec import encode\n", "app.codec"),
        ("import app.codec as codec\n", "app.codec"),
        ("from app import middle\n", "app.codec"),  # through a module it imports
        ("from app.plain import scale\n", None),
        ("import jax\n", None),
    ],
)
def test_project_modules_imported_count(tmp_path: Path, code: str, module: str | None) -> None:
    ctx = _context(tmp_path, code)
    expected = (
        f"line 5 of `{module}` (codec.py) rounds by adding `MAGIC` (1.5 * 2**23): XLA folds "
        "`(t + C) - C` to `t`, so compiled code would not round"
    )
    assert premise(ctx) == ([expected] if module else [])
    if module:
        assert str(tmp_path / "app/codec.py") in dependencies(ctx)
