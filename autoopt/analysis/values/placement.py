"""Where a value lives: a NumPy array on the host, a JAX array on the device, or unknown.

A view of the value model (`analysis/values/model.py`) for the rules that only ask
where data lives: NumPy arrays are on the host; JAX arrays and pytrees of them
(results of `jax.numpy`, `jax.random`, `jax.device_put`, jitted callables) are on
the device; everything else, unknown values included, is `OTHER`.
"""

from __future__ import annotations

from enum import Enum

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.values.lattice import Kind, Value
from autoopt.analysis.values.model import model


class Place(str, Enum):
    HOST = "host"  # a NumPy array or NumPy value
    DEVICE = "device"  # a JAX array
    OTHER = "other"  # unknown, or a Python value


class Placement:
    """Answers `place_of` for one module from its value model."""

    def __init__(self, ctx: ModuleContext) -> None:
        self.values = model(ctx)

    def place_of(self, stmt: Stmt, expr: cst.BaseExpression) -> Place:
        """Where the value of `expr`, evaluated at `stmt`, lives."""
        return _place(self.values.value_of(stmt, expr))

    def defined(self, stmt: Stmt, name: str) -> Place:
        """Where the value `stmt` binds to `name` lives."""
        return _place(self.values.defined(stmt, name))


def _place(value: Value) -> Place:
    if value.kind is Kind.HOST_ARRAY:
        return Place.HOST
    return Place.DEVICE if value.is_arrays else Place.OTHER
