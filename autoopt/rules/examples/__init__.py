"""Each rule's VALID and INVALID cases, one module per rule (data, shipped with the package),
and `edited`, which derives one case's program from another's."""

from __future__ import annotations


def edited(code: str, *pairs: tuple[str, str]) -> str:
    """`code` with each `old` of `pairs` replaced, once, by its `new` (each must occur)."""
    for old, new in pairs:
        assert old in code, old
        code = code.replace(old, new, 1)
    return code
