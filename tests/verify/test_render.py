"""Report writers: terminal table, Markdown, JSON and self-contained HTML."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

from autoopt.verify.render import print_reports, write_report
from autoopt.verify.report import MemoryView, Row, Verdict, VerifyReport
from autoopt.verify.stats import speed_view


def sample_report() -> VerifyReport:
    fast = Row("AO101", "missing-jit", "prog.py", 12, target="step")
    fast.verdict, fast.reason = Verdict.ACCEPTED, "function step: 12.00x"
    fast.function = speed_view("function step", [12.0] * 5, [1.0] * 5, 0.05)
    fast.program = speed_view("program", [2.0] * 3, [1.0] * 3, 0.1)
    fast.max_abs, fast.max_rel = 1e-7, 2e-7
    fast.memory = MemoryView(peak_rss_before=300 << 20, peak_rss_after=280 << 20)
    fast.transfers_before, fast.transfers_after, fast.syncs_before, fast.syncs_after = 9, 1, 30, 30
    wrong = Row("AO302", "host-sync-in-loop", "prog.py", 20)
    wrong.verdict, wrong.reason = Verdict.NOT_EQUIVALENT, "leaf ['loss']: <b>off</b>"
    report = VerifyReport("prog.py", "main", rows=[fast, wrong], device="cpu")
    report.jax_version = report.jaxlib_version = "0.10.2"
    return report


def test_terminal_table_shows_rows_and_reasons() -> None:
    console = Console(record=True, width=220)
    print_reports([sample_report()], console)
    text = console.export_text()
    assert "AO101" in text and "12.00x [12.00-12.00]" in text and "accepted" in text
    assert "not equivalent" in text and "cpu" in text and "jax 0.10.2" in text


def test_markdown_report(tmp_path) -> None:
    out = tmp_path / "r.md"
    write_report([sample_report()], out)
    text = out.read_text()
    assert "| rule | location | verdict |" in text
    assert "prog.py:12" in text and "9 → 1" in text


def test_json_report(tmp_path) -> None:
    out = tmp_path / "r.json"
    write_report([sample_report()], out)
    data = json.loads(out.read_text())
    rows = data["reports"][0]["rows"]
    assert rows[0]["verdict"] == "accepted" and rows[0]["function"]["speedup"] == 12.0
    assert rows[1]["accepted"] is False


def test_html_report_is_self_contained_with_charts(tmp_path) -> None:
    out = tmp_path / "r.html"
    write_report([sample_report()], out)
    text = out.read_text()
    assert text.count("<svg") == 2 and "<rect" in text
    assert not re.search(r"(src|href)=['\"]?https?:", text)
    assert "&lt;b&gt;off&lt;/b&gt;" in text  # reasons are escaped


def test_unknown_report_suffix(tmp_path) -> None:
    with pytest.raises(ValueError, match=r"use \.md, \.json or \.html"):
        write_report([sample_report()], tmp_path / "r.txt")


def test_exit_codes() -> None:
    report = sample_report()
    assert report.exit_code == 1
    report.rows = report.rows[:1]
    assert report.exit_code == 0
    report.error = "the original program fails"
    assert report.exit_code == 2
