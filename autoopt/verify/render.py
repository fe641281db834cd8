"""Verification reports for people: a rich table, Markdown, JSON and self-contained HTML."""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from autoopt._version import __version__
from autoopt.verify.decide import REMAT, human_bytes, remat_memory
from autoopt.verify.report import Row, VerifyReport
from autoopt.verify.stats import SpeedView

COLUMNS = (
    "rule",
    "location",
    "verdict",
    "max error",
    "function speedup",
    "program speedup",
    "compile s",
    "memory",
    "H2D transfers",
    "host syncs",
)
ARROW = " → "
CACHED = "cached: verdicts of an earlier run (--no-cache verifies again)"


def rows_of(report: VerifyReport) -> list[Row]:
    return [*report.rows, *([report.combined] if report.combined else [])]


def speed(view: SpeedView | None) -> str:
    if view is None:
        return "-"
    flag = " (recompiles)" if view.recompiles else ""
    return f"{view.speedup:.2f}x [{view.low:.2f}-{view.high:.2f}]{flag}"


def error(row: Row) -> str:
    if row.max_abs is None:
        return "-"
    if row.max_abs == 0:
        return "0 (exact)"
    return f"abs {row.max_abs:.2g} / rel {row.max_rel or 0:.2g}"


def compile_time(row: Row) -> str:
    view = row.function or row.program
    if view is None or view.compile_s_before is None or view.compile_s_after is None:
        return "-"
    return f"{view.compile_s_before:.2f}{ARROW}{view.compile_s_after:.2f}"


def memory_pair(row: Row) -> tuple[str, float | None, float | None]:
    """The most precise memory measure the row has: (label, before, after).

    Checkpointing (AO601) is judged on compiled temp memory (else the device peak), so
    that is what its row shows.
    """
    m = row.memory
    if row.rule == REMAT:
        label, before, after = remat_memory(m)
        if before and after:
            return label, before, after
    if m.compiled_before and m.compiled_after:
        return "compiled", m.compiled_before["footprint"], m.compiled_after["footprint"]
    if m.device_peak_before and m.device_peak_after:
        return "device", m.device_peak_before, m.device_peak_after
    return "RSS", m.peak_rss_before, m.peak_rss_after


def memory(row: Row) -> str:
    label, before, after = memory_pair(row)
    if before is None and after is None:
        return "-"
    return f"{label} {human_bytes(before)}{ARROW}{human_bytes(after)}"


def pair(before: int | None, after: int | None) -> str:
    return "-" if before is None else f"{before}{ARROW}{'-' if after is None else after}"


def cells(row: Row) -> list[str]:
    return [
        row.rule,
        row.location,
        row.verdict.value,
        error(row),
        speed(row.function),
        speed(row.program),
        compile_time(row),
        memory(row),
        pair(row.transfers_before, row.transfers_after),
        pair(row.syncs_before, row.syncs_after),
    ]


def header(report: VerifyReport) -> str:
    where = report.device or "device not reached"
    versions = (
        f"jax {report.jax_version}, jaxlib {report.jaxlib_version}" if report.jax_version else ""
    )
    cached = CACHED if report.cached else ""
    return ", ".join(
        filter(None, [f"{report.path} (entry {report.entry})", where, versions, cached])
    )


def notes(report: VerifyReport) -> list[str]:
    """One line per row: its verdict's reason and any notes."""
    lines = [f"error: {report.error}"] if report.error else []
    for row in rows_of(report):
        extra = "".join(f"; {note}" for note in row.notes)
        lines.append(f"{row.rule} {row.location}: {row.verdict.value}: {row.reason}{extra}")
    return lines


# ---------------------------------------------------------------- terminal


def print_reports(reports: Iterable[VerifyReport], console: Console | None = None) -> None:
    """A rich table per file, then each row's reason; where the console (or `COLUMNS`)
    is too narrow for the table without breaking words, one block per row instead."""
    console = console or Console()
    for report in reports:
        if not report.rows and not report.error:
            console.print(f"{report.path}: no rewrites to verify", markup=False, soft_wrap=True)
            continue
        widths = _column_widths(report, console.width)
        if widths is None:
            _print_blocks(report, console)
            continue
        console.print(_table(report, widths))
        for line in notes(report):
            console.print(f"  {line}", markup=False, highlight=False, soft_wrap=True)


def _widths(report: VerifyReport) -> tuple[list[int], list[int]]:
    """Each column's longest word (the width that breaks none) and longest text (the
    width that wraps none), its header included."""
    texts = list(zip(COLUMNS, *(cells(row) for row in rows_of(report)), strict=True))
    words = [max(len(word) for text in column for word in text.split()) for column in texts]
    return words, [max(map(len, column)) for column in texts]


def _frame(count: int) -> int:
    """What a table of `count` columns draws besides its cells: a space each side, rules."""
    return 3 * count + 1


def _column_widths(report: VerifyReport, width: int) -> list[int] | None:
    """Widths that fit the table in `width` without breaking a word, None where the words
    alone do not fit; the room beyond the words goes first to the columns that need the
    least more to wrap nothing, the rest shared evenly."""
    widths, texts = _widths(report)
    room = width - _frame(len(COLUMNS)) - sum(widths)
    if room < 0:
        return None
    wanted = sorted(range(len(COLUMNS)), key=lambda i: texts[i] - widths[i])
    for done, i in enumerate(wanted):
        extra = min(texts[i] - widths[i], room // (len(wanted) - done))
        widths[i] += extra
        room -= extra
    return widths


def _table(report: VerifyReport, widths: list[int]) -> Table:
    table = Table(title=Text(header(report)), title_justify="left")
    for column, width in zip(COLUMNS, widths, strict=True):
        table.add_column(column, overflow="fold", width=width)
    for row in rows_of(report):
        table.add_row(*map(Text, cells(row)), style=_style(row))
    return table


def _style(row: Row) -> str:
    return "green" if row.verdict.accepted else "red"


def _print_blocks(report: VerifyReport, console: Console) -> None:
    """The narrow layout: the header, then per row its rule and location and one
    `key: value` line per column, its reason after the verdict."""
    _say(console, header(report))
    if report.error:
        _say(console, f"error: {report.error}")
    width = max(map(len, COLUMNS)) + 1
    for row in rows_of(report):
        rule, location, verdict, *measures = cells(row)
        reason = "".join([row.reason, *(f"; {note}" for note in row.notes)])
        lines = [("verdict", verdict), ("reason", reason), *zip(COLUMNS[3:], measures, strict=True)]
        _say(console, f"{rule} {location}", _style(row))
        for key, value in lines:
            _say(console, f"  {key + ':':<{width}} {value}", _style(row))


def _say(console: Console, line: str, style: str | None = None) -> None:
    """One line as it is: no markup, highlighting or wrapping by rich."""
    console.print(line, style=style, markup=False, highlight=False, soft_wrap=True)


def kept_row(report: VerifyReport) -> Row | None:
    """The row that measured the source autoopt keeps: the combination, or the best single."""
    if report.combined and report.combined.verdict.accepted:
        return report.combined
    return max(report.accepted, key=lambda row: row.best_speedup or 0.0, default=None)


SUMMARY_COLUMNS = ("program", "rewrites", "accepted", "program speedup", "best function speedup")


def summary_cells(report: VerifyReport) -> list[str]:
    kept = kept_row(report)
    functions = [row.function for row in report.accepted if row.function]
    best = max(functions, key=lambda view: view.speedup, default=None)
    return [
        f"{report.path} (cached)" if report.cached else report.path,
        str(len(report.rows)),
        "error" if report.error else str(len(report.accepted)),
        speed(kept.program) if kept else "-",
        speed(best),
    ]


def print_summary(reports: list[VerifyReport], console: Console | None = None) -> None:
    """One line per program: how many rewrites were kept and what they bought, and how
    many programs' verdicts came from the cache."""
    if not reports:
        return
    cached = sum(report.cached for report in reports)
    caption = f"{cached} of {len(reports)} from the verification cache" if cached else None
    table = Table(title="per program", title_justify="left", caption=caption)
    for column in SUMMARY_COLUMNS:
        table.add_column(column, overflow="fold")
    for report in reports:
        table.add_row(*map(Text, summary_cells(report)))
    (console or Console()).print(table)


# ---------------------------------------------------------------- files


def to_markdown(reports: Iterable[VerifyReport]) -> str:
    out = ["# autoopt verification", ""]
    for report in reports:
        out += [f"## {report.path}", "", header(report), ""]
        out.append("| " + " | ".join(COLUMNS) + " |")
        out.append("|" + "---|" * len(COLUMNS))
        out += ["| " + " | ".join(_md(c) for c in cells(row)) + " |" for row in rows_of(report)]
        out += ["", *(f"- {_md(line)}" for line in notes(report)), ""]
    return "\n".join(out)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_json(reports: Iterable[VerifyReport]) -> str:
    data = {"version": __version__, "reports": [r.to_json() for r in reports]}
    return json.dumps(data, indent=2, default=str)


def write_report(reports: list[VerifyReport], path: str | Path) -> None:
    """Write `.md`, `.json` or `.html`, chosen by the file's suffix."""
    path = Path(path)
    writers = {".md": to_markdown, ".json": to_json, ".html": to_html}
    if path.suffix not in writers:
        raise ValueError(f"unknown report format {path.suffix!r}: use .md, .json or .html")
    path.write_text(writers[path.suffix](reports), encoding="utf-8")


# ---------------------------------------------------------------- HTML

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1em 0}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3} tr.ok td{background:#eefbea} tr.bad td{background:#fdeeee}
.notes{font-size:13px;color:#444} svg text{font-size:12px;font-family:system-ui,sans-serif}
"""
_GOOD, _BAD, _BEFORE, _AFTER = "#2e7d32", "#c62828", "#9e9e9e", "#1565c0"
_LABEL_W, _BAR_W, _LINE_H = 260, 420, 22


def to_html(reports: Iterable[VerifyReport]) -> str:
    parts = [
        f"<!doctype html><meta charset='utf-8'><title>autoopt verification</title>"
        f"<style>{_STYLE}</style><h1>autoopt verification</h1>"
    ]
    for report in reports:
        rows = rows_of(report)
        parts.append(f"<h2>{html.escape(report.path)}</h2><p>{html.escape(header(report))}</p>")
        parts.append("<h3>Speedup per rewrite</h3>" + speed_chart(rows))
        parts.append("<h3>Memory before and after</h3>" + memory_chart(rows))
        parts.append(_html_table(rows))
        items = "".join(f"<li>{html.escape(line)}</li>" for line in notes(report))
        parts.append(f"<ul class='notes'>{items}</ul>")
    return "\n".join(parts)


def _html_table(rows: list[Row]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    body = "".join(
        f"<tr class='{'ok' if row.verdict.accepted else 'bad'}'>"
        + "".join(f"<td>{html.escape(c)}</td>" for c in cells(row))
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def speed_chart(rows: list[Row]) -> str:
    """Bars on a log scale around 1x: right is faster, left slower; two views per rewrite."""
    limit = max([4.0, *(v.speedup for r in rows for v in (r.function, r.program) if v)])
    span = math.log2(min(limit, 1024.0))
    center = _LABEL_W + _BAR_W / 2
    lines, y = [], 10
    for row in rows:
        color = _GOOD if row.verdict.accepted else _BAD
        label = f"{row.rule} {row.location} ({row.verdict.value})"
        lines.append(_text(6, y + 14, label[:40]))
        for view, name in ((row.function, "function"), (row.program, "program")):
            lines.append(_speed_bar(view, name, center, span, y, color))
            y += _LINE_H
        y += 6
    axis = f"<line x1='{center}' y1='0' x2='{center}' y2='{y}' stroke='#555'/>"
    ticks = _text(center - 8, y + 14, "1x") + _text(_LABEL_W, y + 14, f"1/{2**span:.0f}x")
    ticks += _text(_LABEL_W + _BAR_W - 30, y + 14, f"{2**span:.0f}x")
    legend = _text(6, y + 34, "dark: function, steady state; light: whole program; log scale")
    return _svg(y + 44, "".join(lines) + axis + ticks + legend)


def _speed_bar(
    view: SpeedView | None, name: str, center: float, span: float, y: int, color: str
) -> str:
    if view is None:
        return _text(center + 6, y + 14, f"{name}: not measured", "#888")
    scale = _BAR_W / 2 / span
    width = max(min(math.log2(max(view.speedup, 1e-9)), span), -span) * scale
    x = center if width >= 0 else center + width
    opacity = "1" if name == "function" else "0.55"
    bar = (
        f"<rect x='{x:.1f}' y='{y + 3}' width='{max(abs(width), 1):.1f}' height='{_LINE_H - 6}'"
        f" fill='{color}' fill-opacity='{opacity}'/>"
    )
    tx = center + width + 4 if width >= 0 else center + width - 120
    return bar + _text(tx, y + 15, f"{name} {view.speedup:.2f}x")


def memory_chart(rows: list[Row]) -> str:
    """Paired bars per rewrite: before (grey) and after (blue), scaled to the larger of the two."""
    measured = [(row, *memory_pair(row)) for row in rows]
    measured = [m for m in measured if m[2] and m[3]]
    if not measured:
        return "<p>No memory measurements.</p>"
    lines, y = [], 10
    for row, label, before, after in measured:
        top = max(before, after)  # type: ignore[type-var]  # both measured
        lines.append(_text(6, y + 14, f"{row.rule} {row.location}"[:40]))
        for value, color, tag in ((before, _BEFORE, "before"), (after, _AFTER, "after")):
            width = max(value / top * _BAR_W, 1)  # type: ignore[operator]  # both measured
            lines.append(
                f"<rect x='{_LABEL_W}' y='{y + 3}' width='{width:.1f}'"
                f" height='{_LINE_H - 6}' fill='{color}'/>"
            )
            lines.append(
                _text(_LABEL_W + width + 4, y + 15, f"{tag}: {label} {human_bytes(value)}")
            )
            y += _LINE_H
        y += 6
    return _svg(y + 6, "".join(lines))


def _svg(height: int, body: str) -> str:
    width = _LABEL_W + _BAR_W + 200
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}'"
        f" role='img'>{body}</svg>"
    )


def _text(x: float, y: float, text: str, color: str = "#222") -> str:
    return f"<text x='{x:.1f}' y='{y:.1f}' fill='{color}'>{html.escape(text)}</text>"
