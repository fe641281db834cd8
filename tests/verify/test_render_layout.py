"""The verification table at the terminal's width: a table where its words fit, else
one block of `key: value` lines per rewrite (COLUMNS sets the width rich sees)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from autoopt.verify.render import print_reports
from tests.verify.test_render import sample_report

NARROW = """\
prog.py (entry main), cpu, jax 0.10.2, jaxlib 0.10.2
AO101 prog.py:12
  verdict:          accepted
  reason:           function step: 12.00x
  max error:        abs 1e-07 / rel 2e-07
  function speedup: 12.00x [12.00-12.00]
  program speedup:  2.00x [2.00-2.00]
  compile s:        -
  memory:           RSS 300.0 MiB → 280.0 MiB
  H2D transfers:    9 → 1
  host syncs:       30 → 30
AO302 prog.py:20
  verdict:          not equivalent
  reason:           leaf ['loss']: <b>off</b>
  max error:        -
  function speedup: -
  program speedup:  -
  compile s:        -
  memory:           -
  H2D transfers:    -
  host syncs:       -
"""


def printed(columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """What `autoopt verify` prints for the sample report in a terminal `columns` wide."""
    monkeypatch.setenv("COLUMNS", str(columns))
    out = io.StringIO()
    print_reports([sample_report()], Console(file=out))
    return out.getvalue()


def test_80_columns_get_one_block_per_rewrite(monkeypatch: pytest.MonkeyPatch) -> None:
    assert printed(80, monkeypatch) == NARROW


def test_160_columns_get_the_table_with_no_word_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = printed(160, monkeypatch).splitlines()
    assert max(map(len, lines)) == 160  # the title and the table's rules fill the width
    expected = (Path(__file__).parent / "layouts" / "table_160.txt").read_text(encoding="utf-8")
    assert "".join(f"{line.rstrip()}\n" for line in lines) == expected


@pytest.mark.parametrize("columns", [100, 111])
def test_a_table_that_would_break_words_is_laid_out_in_blocks(
    columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten columns need 112 characters before a header or cell breaks inside a word."""
    assert printed(columns, monkeypatch) == NARROW


def test_the_narrowest_table_breaks_lines_only_between_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = printed(112, monkeypatch).splitlines()
    assert lines[2].split("┃")[1:-1] == [
        "       ", "            ", "            ", " max   ", " function      ", " program     ",
        " compile ", "        ", " H2D       ", " host  ",
    ]  # fmt: skip
    assert [cell.strip() for cell in lines[3].split("┃")[1:-1]] == [
        "rule", "location", "verdict", "error", "speedup", "speedup", "s", "memory",
        "transfers", "syncs",
    ]  # fmt: skip
