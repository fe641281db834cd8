"""Incremental analysis: after any edit it finds exactly what a fresh analysis finds."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from autoopt.config import Settings
from autoopt.frontends.document import parse_whole, reparse
from autoopt.frontends.lsp import Analysis, Tracker, diagnostics
from autoopt.model import AutooptError

CORPUS = sorted((Path(__file__).parents[2] / "corpus").glob("*.py"))
SNIPPETS = (
    "x = 1\n", "    y = jnp.ones(3)\n", "# a comment\n", "\n", "    # indented\n",
    "def helper(a):\n    return jnp.sin(a)\n", "@jax.jit\n", "for i in range(3):\n",
    "    pass\n", "if x:\n", "else:\n", '"""doc"""\n', "(", ")", "'''", ":", "\t", "  ",
    "import jax\n", "u = step(u)\n", "        z = float(u)\n", "return u\n",
)  # fmt: skip

#: One edit: (kind, where as a fraction of the text, what, how much).
edits = st.tuples(
    st.sampled_from(["insert", "delete", "type", "cut", "undo"]),
    st.floats(0, 1),
    st.sampled_from(SNIPPETS),
    st.integers(1, 4),
)


def edited(text: str, previous: str, edit: tuple[str, float, str, int]) -> str:
    """`text` after one edit; "undo" goes back to `previous` (a broken text fixed)."""
    kind, where, what, size = edit
    lines = text.splitlines(keepends=True)
    at = int(where * len(lines))
    if kind == "undo":
        return previous
    if kind == "insert":
        return "".join([*lines[:at], what, *lines[at:]])
    if kind == "delete":
        return "".join(lines[:at] + lines[at + size :])
    offset = int(where * len(text))
    if kind == "type":
        return text[:offset] + what.strip("\n") + text[offset:]
    return text[:offset] + text[offset + size :]


def outcome(analysis: Analysis) -> tuple:
    """Everything the server publishes or offers for an analysis."""
    published = [
        (d.range, d.message, d.severity, d.code)
        for d in diagnostics(analysis, lsp.PositionEncodingKind.Utf16)
    ]
    if analysis.error is not None:
        return published, analysis.error.line
    return published, [f.detached() for f in analysis.findings], analysis.fixed(analysis.fix_all())


def analyse(text: str, path: str, tracker: Tracker) -> Analysis:
    return Analysis.run(text, path, Settings(unsafe_fixes=True), tracker, lambda: None)


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(CORPUS), st.lists(edits, min_size=1, max_size=8))
def test_incremental_equals_fresh_after_every_edit(path: Path, steps: list) -> None:
    text = previous = path.read_text(encoding="utf-8")
    tracker = Tracker(incremental=True)
    analyse(text, str(path), tracker)
    for step in steps:
        text, previous = edited(text, previous, step), text
        incremental = analyse(text, str(path), tracker)
        fresh = analyse(text, str(path), Tracker(incremental=False))
        assert outcome(incremental) == outcome(fresh)


@pytest.mark.parametrize("path", CORPUS[:12], ids=lambda p: p.name)
def test_a_splice_is_the_parse_of_the_whole_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    old = parse_whole(text, str(path))
    lines = text.splitlines(keepends=True)
    at = max(n for n, line in enumerate(lines) if line.startswith("def "))
    new = "".join([*lines[:at], "value = 3  # typed\n\n\n", *lines[at:]])
    spliced = reparse(old, new, str(path))
    assert spliced.module.deep_equals(cst.parse_module(new))
    assert spliced.line_offsets == parse_whole(new, str(path)).line_offsets
    kept = sum(1 for a, b in zip(old.module.body, spliced.module.body, strict=False) if a is b)
    assert kept >= len(old.module.body) // 2 - 2  # only the statements around the edit are new


def test_a_broken_text_raises_as_a_whole_parse_does() -> None:
    text = "import jax\n\na = 0\n\nx = 1\n\ny = 2\n\nz = 3\n"
    broken = text.replace("x = 1", "x = (1")
    old = parse_whole(text, "m.py")
    with pytest.raises(AutooptError) as error:
        reparse(old, broken, "m.py")
    with pytest.raises(AutooptError) as whole:
        parse_whole(broken, "m.py")
    assert (error.value.line, error.value.message) == (whole.value.line, whole.value.message)
    fixed = reparse(old, text.replace("x = 1", "x = (1)"), "m.py")
    kept = [a is b for a, b in zip(old.module.body, fixed.module.body, strict=True)]
    assert kept == [True, False, False, False, True]  # the statement and its neighbours
