"""Equivalence of what two runs printed and logged (captured by `autoopt.verify.capture`).

Each stream (stdout, stderr, logging records, warnings) must have the same lines in the
same order. Within a line, the text between numbers must be the same; integers must be
the same; a pair where either is a float passes when `|new - ref| <= atol + rtol * |ref|`
with the float32 tolerances of returned values (`atol` scaled by the line's largest
float), or the user's `rtol`/`atol`. Numbers that differ between the original's own
runs (timings, dates) are "volatile" and not compared. See docs/verification.md.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from autoopt.verify.compare import Tolerance, tolerance_for

# stream, what the reason calls it, what one of its lines is called
STREAMS = (
    ("stdout", "printed output differs", "line"),
    ("stderr", "printed output differs", "stderr line"),
    ("logs", "logging differs", "record"),
    ("warnings", "warnings differ", "warning"),
)
# A number not inside a name (`float32`, `x2`) but maybe before a unit (`0.5s`, `3x`).
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|(?:inf|nan)(?!\w))")
SHOWN = 120  # characters of a line quoted in a reason

Position = tuple[str, int, int]  # stream, line, number within the line


@dataclass
class OutputDiff:
    """How two runs' output differ: `reason` for the first difference that counts
    ("" if none); `numbers`, every number that differs beyond tolerance."""

    reason: str = ""
    numbers: set[Position] = field(default_factory=set)

    @property
    def equal(self) -> bool:
        return not self.reason


def split_numbers(line: str) -> tuple[list[str], list[str]]:
    """The text between numbers (one more piece than numbers) and the numbers."""
    texts, numbers, last = [], [], 0
    for match in NUMBER.finditer(line):
        texts.append(line[last : match.start()])
        numbers.append(match.group())
        last = match.end()
    texts.append(line[last:])
    return texts, numbers


def compare_output(
    ref: dict[str, Any],
    new: dict[str, Any],
    tol: Tolerance | None = None,
    volatile: set[Position] | frozenset[Position] = frozenset(),
) -> OutputDiff:
    """Compare `new`'s captured output against the original's `ref`, stream by stream."""
    out = OutputDiff()
    for stream, what, unit in STREAMS:
        a, b = ref.get(stream, {}), new.get(stream, {})
        reason = _compare_stream(stream, a, b, tol or Tolerance(), volatile, out.numbers)
        if reason and not out.reason:
            out.reason = f"{what}: {unit} {reason}"
    return out


def _compare_stream(
    stream: str,
    ref: dict[str, Any],
    new: dict[str, Any],
    tol: Tolerance,
    volatile: set[Position] | frozenset[Position],
    numbers: set[Position],
) -> str:
    a, b = ref.get("lines", []), new.get("lines", [])
    counts = ref.get("count", len(a)), new.get("count", len(b))
    first = ""  # the first line that differs; numbers are collected past it, not text
    for number, (x, y) in enumerate(zip(a, b, strict=False)):
        differs = _compare_line(stream, number, x, y, tol, numbers)
        if differs is None or any((stream, number, i) not in volatile for i in differs):
            first = first or _quote(number, x, y, counts)
        if differs is None:
            return first
    if first:
        return first
    if counts[0] != counts[1] or len(a) != len(b):
        n = min(len(a), len(b))
        return _quote(n, a[n] if n < len(a) else None, b[n] if n < len(b) else None, counts)
    return ""


def _compare_line(
    stream: str, number: int, ref: str, new: str, tol: Tolerance, numbers: set[Position]
) -> list[int] | None:
    """The numbers of `new` that differ beyond tolerance, or None if its text differs."""
    if ref == new:
        return []
    texts_a, nums_a = split_numbers(ref)
    texts_b, nums_b = split_numbers(new)
    if texts_a != texts_b:
        return None
    rtol, scale = tolerance_for("float32")
    rtol = tol.rtol if tol.rtol is not None else rtol
    floats = [abs(v) for t in nums_a if _is_float(t) and math.isfinite(v := float(t))]
    atol = tol.atol if tol.atol is not None else scale * max(floats, default=0.0)
    differ = []
    for i, (x, y) in enumerate(zip(nums_a, nums_b, strict=True)):
        if (x != y and not (_is_float(x) or _is_float(y))) or not _close(x, y, rtol, atol):
            differ.append(i)
            numbers.add((stream, number, i))
    return differ


def _is_float(token: str) -> bool:
    return any(c in token for c in ".eEin")


def _close(ref: str, new: str, rtol: float, atol: float) -> bool:
    a, b = float(ref), float(new)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(b - a) <= atol + rtol * abs(a)


def _quote(number: int, ref: str | None, new: str | None, counts: tuple[int, int]) -> str:
    def shown(line: str | None) -> str:
        if line is None:
            return "(none)"
        return f"`{line[:SHOWN]}{'...' if len(line) > SHOWN else ''}`"

    lengths = f" ({counts[0]} vs {counts[1]} in all)" if counts[0] != counts[1] else ""
    return f"{number + 1}: {shown(ref)} vs {shown(new)}{lengths}"
