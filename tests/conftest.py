"""Test ids that every pytest-xdist worker spells the same."""

from __future__ import annotations

import pytest


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """A set's order depends on the hash seed, which differs between workers: sort it."""
    if isinstance(val, set | frozenset):
        return "{" + ", ".join(sorted(map(repr, val))) + "}"
    return None
