"""The server's pure helpers: line splitting, position encodings, minimal edits."""

from __future__ import annotations

import pytest
from lsprotocol import types as lsp

from autoopt.config import Settings
from autoopt.frontends.lsp import ClientSettings, from_client, split_lines, text_edits, units

UTF8, UTF16, UTF32 = (lsp.PositionEncodingKind.Utf8, lsp.PositionEncodingKind.Utf16,
                      lsp.PositionEncodingKind.Utf32)  # fmt: skip


def apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """Apply TextEdits given in UTF-32 (code point) positions, last first."""
    lines = split_lines(text)

    def offset(p: lsp.Position) -> int:
        return sum(len(line) for line in lines[: p.line]) + p.character

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("a\nb\nc\n", "x\na\nb\nc\ny\n"),
        ("a\nb", "a\nb\nc"),  # no newline at the end
        ("a\r\nb\r\n", "a\r\nz\r\nb\r\n"),
        ("é😀\nb\n", "é😀\nb\nc😀\n"),
        ("", "import jax\n"),
        ("same\n", "same\n"),
    ],
)
def test_text_edits_turn_old_into_new(old: str, new: str) -> None:
    edits = text_edits(old, new, UTF32)
    assert apply(old, edits) == new
    assert (edits == []) == (old == new)


def test_one_edit_per_hunk_not_a_whole_document_replace() -> None:
    old = "".join(f"line {n}\n" for n in range(100))
    new = old.replace("line 10\n", "@jax.jit\nline 10\n").replace("line 90\n", "line 90!\n")
    edits = text_edits(old, new, UTF16)
    assert [(e.range.start.line, e.range.end.line, e.new_text) for e in edits] == [
        (10, 10, "@jax.jit\n"),
        (90, 91, "line 90!\n"),
    ]


def test_lines_split_only_at_python_line_breaks() -> None:
    assert split_lines("a\u2028b\x0cc\nd\re\r\nf") == ["a\u2028b\x0cc\n", "d\r", "e\r\n", "f"]


def test_units_and_back() -> None:
    text = "x = '😀é'\n"
    assert [units(text[:7], e) for e in (UTF8, UTF16, UTF32)] == [11, 8, 7]
    assert from_client([text], lsp.Position(0, 8), UTF16) == 7
    assert from_client([text], lsp.Position(0, 6), UTF16) == 5  # inside the emoji: before it


def test_client_settings_override_pyproject_only_where_given() -> None:
    base = Settings(select=("AO1",), unsafe_fixes=True)
    raw = {"autoopt": {"ignore": "ao102, AO7", "unsafeFixes": "yes"}}
    merged = ClientSettings.parse(raw).over(base)
    assert merged == Settings(select=("AO1",), ignore=("AO102", "AO7"), unsafe_fixes=True)
    assert ClientSettings.parse(None) == ClientSettings.parse([1]) == ClientSettings()
