"""The lattice of abstract values that the value model (`analysis/values/model.py`) computes.

A `Value` is a `Kind` (what sort of thing it is), whether it is one hashable constant,
and for arrays what is known of their element type and, as an `ArrayType`
(`analysis/values/array_type.py`), of their shape and dtype. `join` is the
value when either of two may flow to one place; `BOTTOM`, "no value yet", is its
identity, used inside cycles before their first estimate. `combine` is what an
arithmetic operator gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from autoopt.analysis.values.array_type import ArrayType


class Kind(str, Enum):
    ARRAY = "a JAX array"
    HOST_ARRAY = "a NumPy array"
    SCALAR = "a Python number"
    STRING = "a string"
    DTYPE = "a dtype"
    SHAPE = "a shape tuple"
    PYTREE = "a pytree of arrays"
    CALLABLE = "a callable"
    MODULE = "a module"
    OBJECT = "a host object"
    CONTAINER = "a Python container"
    NONE = "None"
    UNKNOWN = "a value autoopt cannot see"
    BOTTOM = "no value yet"  # inside a cycle, before the first estimate


@dataclass(frozen=True)
class Value:
    """An abstract value: its kind, whether it is one constant, and array details."""

    kind: Kind
    constant: bool = False  # the same hashable value every time (literals, module constants)
    detail: str | None = None  # arrays: "bool"/"int" element type; callables: "arrays"
    #: arrays: their type, where any of it is known (None otherwise: see `typed_value`);
    #: a pytree: the dtype of its leaves; a shape tuple: its dimensions, as `shape`
    array: ArrayType | None = None

    @property
    def shape(self) -> tuple[int, ...] | None:
        """`array.shape`, None where no type is known."""
        array = self.array
        return None if array is None else array.shape

    @property
    def dtype(self) -> str | None:
        """`array.dtype`, None where no type is known."""
        array = self.array
        return None if array is None else array.dtype

    @property
    def is_arrays(self) -> bool:
        """A JAX array or a pytree whose leaves are JAX arrays."""
        return self.kind in (Kind.ARRAY, Kind.PYTREE)

    @property
    def container(self) -> str | None:
        """ "tuple", "list" or "dict" for a pytree of that container whose every element
        (a dict: every value, under string keys) is a JAX array; None otherwise."""
        return self.detail if self.kind is Kind.PYTREE and self.detail in CONTAINERS else None

    @property
    def is_static_kind(self) -> bool:
        """A kind jit can only take as a static (hashable, Python-level) argument."""
        return self.kind in (Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE) or (
            self.kind is Kind.CONTAINER and self.constant
        )

    def join(self, other: Value) -> Value:
        """The value when either may flow here."""
        if Kind.BOTTOM in (self.kind, other.kind):
            return other if self.kind is Kind.BOTTOM else self
        if self.kind is not other.kind:
            if {self.kind, other.kind} == {Kind.ARRAY, Kind.PYTREE}:
                return PYTREE
            return UNKNOWN
        return Value(
            self.kind,
            self.constant and other.constant,
            self.detail if self.detail == other.detail else None,
            self.array if self.array == other.array else None,
        )

    @property
    def typed(self) -> bool:
        """An array whose shape and dtype are both known."""
        array = self.array
        return (
            self.kind is Kind.ARRAY
            and array is not None
            and array.shape is not None
            and array.dtype is not None
        )


def typed_value(
    kind: Kind,
    shape: tuple[int, ...] | None = None,
    dtype: str | None = None,
    detail: str | None = None,
) -> Value:
    """A value of `kind` with this shape and dtype (`array` None when neither is known,
    so that it equals the value without them)."""
    if shape is None and dtype is None:
        return Value(kind, detail=detail)
    return Value(kind, detail=detail, array=ArrayType(shape, dtype, kind is Kind.HOST_ARRAY))


#: The containers a pytree's `detail` may name (`Value.container`); the first two can be
#: changed in place, so the value model keeps them only for names nothing may change.
CONTAINERS = frozenset({"tuple", "list", "dict"})
MUTABLE_CONTAINERS = frozenset({"list", "dict"})

UNKNOWN = Value(Kind.UNKNOWN)
BOTTOM = Value(Kind.BOTTOM)
ARRAY = Value(Kind.ARRAY)
HOST = Value(Kind.HOST_ARRAY)
PYTREE = Value(Kind.PYTREE)
SCALAR = Value(Kind.SCALAR)
OBJECT = Value(Kind.OBJECT)
CALLABLE = Value(Kind.CALLABLE)
CONST_SCALAR = Value(Kind.SCALAR, constant=True)
CONST_STRING = Value(Kind.STRING, constant=True)
NONE = Value(Kind.NONE, constant=True)
STRING = Value(Kind.STRING)


def arrays_in(container: str) -> Value:
    """A tuple, list or dict (string keys) whose every element is a JAX array."""
    return Value(Kind.PYTREE, detail=container)


#: A JAX array combined by an operator with these gives a JAX array (or raises).
_ARRAY_OPERANDS = {Kind.ARRAY, Kind.SCALAR, Kind.HOST_ARRAY, Kind.UNKNOWN}


def join_all(values: list[Value]) -> Value:
    """The join of several values (unknown when there are none)."""
    if not values:
        return UNKNOWN
    out = values[0]
    for value in values[1:]:
        out = out.join(value)
    return out


def typed_arithmetic(combined: Value, left: Value, right: Value) -> Value:
    """Elementwise arithmetic keeps a known shape and dtype when the other side has the
    same ones or is a Python number (weakly typed: no promotion, no broadcasting)."""
    typed = [v for v in (left, right) if v.kind not in (Kind.SCALAR, Kind.BOTTOM)]
    if not typed or not all(v.typed for v in typed) or len({v.dtype for v in typed}) != 1:
        return combined
    shape = _broadcast([v.shape for v in typed])  # type: ignore[misc]
    return typed_value(Kind.ARRAY, shape, typed[0].dtype) if shape is not None else combined


def _broadcast(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """NumPy's broadcast of known shapes, or None when they do not broadcast."""
    rank = max(len(s) for s in shapes)
    out = []
    for axis in range(rank):
        sizes = {s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0} - {1}
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def combine(left: Value, right: Value, modulo: bool) -> Value:
    """The value of `left <op> right` for an arithmetic operator (`%` formats strings)."""
    kinds = {left.kind, right.kind}
    if Kind.ARRAY in kinds and kinds <= _ARRAY_OPERANDS | {Kind.BOTTOM}:
        return ARRAY
    if Kind.BOTTOM in kinds:
        return BOTTOM  # not known until the cycle's first estimate
    if Kind.HOST_ARRAY in kinds and kinds <= {Kind.HOST_ARRAY, Kind.SCALAR}:
        return HOST
    constant = left.constant and right.constant
    if kinds == {Kind.SCALAR}:
        return Value(Kind.SCALAR, constant)
    if kinds == {Kind.STRING} or (left.kind is Kind.STRING and modulo):
        return Value(Kind.STRING, constant)
    if kinds == {Kind.SHAPE}:
        return Value(Kind.SHAPE, constant)
    return UNKNOWN
