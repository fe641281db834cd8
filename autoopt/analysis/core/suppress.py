"""`# autoopt: ignore` and `# autoopt: ignore[AO201,AO3]` comments."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable

_PATTERN = re.compile(r"#\s*autoopt:\s*ignore(?:\[(?P<codes>[A-Za-z0-9_, ]+)\])?")

ALL = frozenset({"*"})


def suppressions(source: str) -> dict[int, frozenset[str]]:
    """Line -> suppressed code prefixes ("*" for all) from real comments only."""
    found: dict[int, frozenset[str]] = {}
    if "autoopt:" not in source:
        return found
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for tok in tokens:
        if tok.type != tokenize.COMMENT or not (match := _PATTERN.search(tok.string)):
            continue
        codes = match.group("codes")
        found[tok.start[0]] = (
            frozenset(c.strip().upper() for c in codes.split(",") if c.strip()) if codes else ALL
        )
    return found


def is_suppressed(rule: str, lines: range, table: dict[int, frozenset[str]]) -> bool:
    for line in lines:
        codes = table.get(line)
        if codes and (codes == ALL or any(rule.startswith(c) for c in codes)):
            return True
    return False


def with_codes(comment: str, codes: Iterable[str]) -> str:
    """`comment` (a comment's text, maybe empty) suppressing `codes` too: added to its
    `# autoopt: ignore[...]` as it is spelled, else such a comment appended."""
    match = _PATTERN.search(comment)
    if match is None:
        return f"{comment}  # autoopt: ignore[{','.join(sorted(set(codes)))}]"
    held = match.group("codes")
    if held is None:
        return comment  # a bare ignore suppresses every code already
    new = sorted(set(codes) - {c.strip().upper() for c in held.split(",")})
    if not new:
        return comment
    separator = ", " if ", " in held else ","
    start, end = match.span("codes")
    return f"{comment[:start]}{separator.join([held.rstrip(), *new])}{comment[end:]}"
