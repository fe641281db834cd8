"""The one description of an array that the analyses share: what is known of its shape,
its dtype, and whether it is a NumPy array on the host.

`ArrayType` is what the value model (`analysis/values/lattice.py`, `Value.array`) keeps
for arrays, what the carry proofs (`analysis/plans/carry_types.py`) compute for loop
carries, and what the shape facts (`analysis/values/shapes.py`) prove for a growth
loop's pieces. The shape is known in full (`shape`) or, where only part of it is
proven, by its length along axis 0 (`rows`) and its rank (`ndim`). A dtype is a name
("float32"), or `DEFAULT_FLOAT` / `DEFAULT_INT`: JAX's default float and int, float32
and int32, or float64 and int64 under `JAX_ENABLE_X64`. Messages name dtypes and types
through `dtype_text` and `ArrayType.describe`.
"""

from __future__ import annotations

from dataclasses import dataclass

#: JAX's default float (`jnp.zeros(3)`): float32, or float64 under x64.
DEFAULT_FLOAT = "float"
#: JAX's default int (`jnp.arange(5)`): int32, or int64 under x64.
DEFAULT_INT = "int"
_DEFAULTS = {DEFAULT_FLOAT: "default float", DEFAULT_INT: "default int"}


@dataclass(frozen=True)
class ArrayType:
    """What is known of one array; None where nothing is. `rows` and `ndim` describe a
    shape proven only in part, and are None where `shape` is known."""

    shape: tuple[int, ...] | None = None  # every dimension
    dtype: str | None = None  # a dtype name ("float32"), DEFAULT_FLOAT or DEFAULT_INT
    host: bool = False  # a NumPy array
    rows: int | None = None  # the length along axis 0
    ndim: int | None = None  # the rank

    def describe(self) -> str:
        """`float32[40]`, `default-float[27,3]`; in part: `float32[4,?]`, `bool[1,...]`."""
        return f"{dtype_text(self.dtype, in_type=True)}[{self._dims()}]"

    def _dims(self) -> str:
        if self.shape is not None:
            return ",".join(map(str, self.shape))
        if self.ndim is None:
            return "..." if self.rows is None else f"{self.rows},..."
        dims = ["?"] * self.ndim
        if dims and self.rows is not None:
            dims[0] = str(self.rows)
        return ",".join(dims)


def dtype_text(dtype: str | None, in_type: bool = False) -> str:
    """A dtype as messages name it: "float32", "the default float" in prose, and
    "default-float" inside a type (`default-float[3]`)."""
    default = _DEFAULTS.get(dtype or "")
    if in_type:
        return default.replace(" ", "-") if default else dtype or "unknown-dtype"
    return f"the {default}" if default else dtype or "an unknown dtype"
