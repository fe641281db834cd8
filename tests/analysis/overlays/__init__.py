"""Helpers of the overlay tests."""

from __future__ import annotations

import importlib
import warnings

MISSING = object()


def resolve(qual: str) -> bool:
    """Whether `qual` names something in the installed libraries (deprecated or not)."""
    parts = qual.split(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            return all((obj := getattr(obj, p, MISSING)) is not MISSING for p in parts[i:])
    return False
