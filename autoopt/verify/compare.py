"""Equivalence of two flattened pytrees: exact for ints, bools and text, tolerant for floats.

A float element passes when `|a - b| <= atol + rtol * |b|`, `b` being the original
program's value and `atol = scale * max|b|` over the leaf (see docs/verification.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoopt.verify.trees import TEXT, FlatTree, Leaf

# dtype name -> (rtol, atol as a fraction of the leaf's largest finite |value|)
TOLERANCES: dict[str, tuple[float, float]] = {
    "float8": (2.5e-1, 1e-1),
    "float16": (1e-2, 1e-3),
    "bfloat16": (5e-2, 1e-2),
    "float32": (1e-4, 1e-5),
    "float64": (1e-9, 1e-11),
}
_COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}
REL_FLOOR = 1e-3  # reported relative error divides by max(|b|, REL_FLOOR * max|b|)
MAX_NAMED = 3  # leaves named in a reason when several differ in type or shape


@dataclass(frozen=True)
class Tolerance:
    """User overrides: `rtol` replaces the dtype's, `atol` is absolute (not scaled)."""

    rtol: float | None = None
    atol: float | None = None


@dataclass
class Comparison:
    """The verdict of one comparison and the largest errors seen."""

    equal: bool
    reason: str = ""
    max_abs: float = 0.0
    max_rel: float = 0.0
    worst: str = ""  # the path of the leaf with the largest relative error

    def merge(self, other: Comparison, path: str) -> None:
        """Fold one leaf's result into this tree-wide result."""
        if other.max_rel > self.max_rel:
            self.max_rel, self.worst = other.max_rel, path
        self.max_abs = max(self.max_abs, other.max_abs)
        if self.equal and not other.equal:
            self.equal, self.reason = False, f"leaf {path or '<root>'}: {other.reason}"


def tolerance_for(dtype: str, x64: bool = False) -> tuple[float, float]:
    """The default (rtol, atol scale) for a float or complex dtype name."""
    if dtype in ("float", "complex"):  # Python scalars: as precise as the arrays they came from
        return TOLERANCES["float64" if x64 else "float32"]
    name = _COMPLEX_PART.get(dtype, dtype)
    if name.startswith("float8"):
        name = "float8"
    return TOLERANCES.get(name, TOLERANCES["float32"])


def compare_trees(
    ref: FlatTree, new: FlatTree, tol: Tolerance | None = None, *, x64: bool = False
) -> Comparison:
    """Compare `new` against the reference `ref`: the structure, then the type and shape
    of every leaf (all such differences named), then the values leaf by leaf."""
    if ref.structure != new.structure:
        return Comparison(False, f"structure differs: {ref.structure} vs {new.structure}")
    mismatches = [m for a, b in zip(ref.leaves, new.leaves, strict=True) if (m := _layout(a, b))]
    if mismatches:
        shown = "; ".join(mismatches[:MAX_NAMED])
        more = len(mismatches) - MAX_NAMED
        return Comparison(False, shown + (f"; and {more} more leaves" if more > 0 else ""))
    result = Comparison(True)
    for a, b in zip(ref.leaves, new.leaves, strict=True):
        result.merge(compare_leaves(a, b, tol or Tolerance(), x64=x64), a.path)
    return result


def compare_leaves(ref: Leaf, new: Leaf, tol: Tolerance, *, x64: bool = False) -> Comparison:
    """Compare the values of two leaves of the same kind, dtype and shape (see `_layout`)."""
    if ref.kind == TEXT:
        return Comparison(ref.value == new.value, f"{ref.value!r} vs {new.value!r}")
    return compare_values(np.asarray(ref.value), np.asarray(new.value), ref.dtype, tol, x64=x64)


def _carried_precision(dtype: str, ref: np.ndarray, x64: bool) -> str:
    """The precision the original's values carry: with x64 off, a float64 leaf whose every
    value is exactly a float32 (float32 device values collected through `float()` into a
    NumPy array) holds float32 values, compared as float32; any other value keeps float64."""
    if dtype != "float64" or x64 or not ref.size:
        return dtype
    with np.errstate(over="ignore"):
        narrowed = ref.astype(np.float32).astype(np.float64)
    return "float32" if np.array_equal(narrowed, ref) else dtype


def _layout(ref: Leaf, new: Leaf) -> str:
    """How two leaves differ in kind, dtype or shape, naming the leaf; "" if they do not."""
    where = f"leaf {ref.path or '<root>'}"
    if (ref.kind, ref.dtype) != (new.kind, new.dtype):
        return f"{where}: type {_describe(ref)} vs {_describe(new)}"
    if ref.kind != TEXT and ref.shape != new.shape:
        return f"{where}: shape {ref.shape} vs {new.shape}"
    return ""


def compare_values(
    ref: np.ndarray, new: np.ndarray, dtype: str, tol: Tolerance, *, x64: bool = False
) -> Comparison:
    """Compare two same-shape arrays; `dtype` names the original dtype (storage may be wider)."""
    if not _is_inexact(ref.dtype):
        return _compare_exact(ref, new)
    ref, new = _widen(ref), _widen(new)
    special = _compare_special(ref, new)
    if not special.equal:
        return special
    finite = np.isfinite(ref) & np.isfinite(new)
    a, b = ref[finite], new[finite]
    rtol, scale = tolerance_for(_carried_precision(dtype, a, x64), x64)
    peak = float(np.max(np.abs(a))) if a.size else 0.0
    rtol = tol.rtol if tol.rtol is not None else rtol
    atol = tol.atol if tol.atol is not None else max(scale * peak, np.finfo(np.float32).tiny)
    diff = np.abs(a - b)
    rel = diff / np.maximum(np.abs(a), REL_FLOOR * peak) if peak else diff
    out = Comparison(True, max_abs=_max(diff), max_rel=_max(rel))
    bad = int(np.count_nonzero(diff > atol + rtol * np.abs(a)))
    if bad:
        out.equal = False
        out.reason = (
            f"{bad} of {a.size} elements differ beyond tolerance (max abs {out.max_abs:.3g},"
            f" max rel {out.max_rel:.3g}; rtol {rtol:.3g}, atol {atol:.3g})"
        )
    return out


def _compare_exact(ref: np.ndarray, new: np.ndarray) -> Comparison:
    differ = ref != new
    count = int(np.count_nonzero(differ))
    if not count:
        return Comparison(True)
    if ref.dtype.kind in "iu":
        gap = np.abs(ref[differ].astype(np.float64) - new[differ].astype(np.float64))
        worst = float(np.max(gap))
        return Comparison(
            False, f"{count} of {ref.size} values differ (max abs {worst:.6g})", max_abs=worst
        )
    return Comparison(False, f"{count} of {ref.size} values differ")


def _compare_special(ref: np.ndarray, new: np.ndarray) -> Comparison:
    """NaN and inf must sit in the same places (inf with the same sign)."""
    nan_a, nan_b = np.isnan(ref), np.isnan(new)
    if not np.array_equal(nan_a, nan_b):
        new_nans = int(np.count_nonzero(nan_b & ~nan_a))
        lost = int(np.count_nonzero(nan_a & ~nan_b))
        return Comparison(False, f"NaN in {new_nans} new places, {lost} NaN gone", np.inf, np.inf)
    inf_a, inf_b = np.isinf(ref), np.isinf(new)
    if not np.array_equal(inf_a, inf_b) or not np.array_equal(ref[inf_a], new[inf_b]):
        return Comparison(False, "inf in different places", np.inf, np.inf)
    return Comparison(True)


def _widen(values: np.ndarray) -> np.ndarray:
    return values.astype(np.complex128 if values.dtype.kind == "c" else np.float64)


def _is_inexact(dtype: np.dtype) -> bool:
    return dtype.kind in "fc"


def _max(values: np.ndarray) -> float:
    return float(np.max(values)) if values.size else 0.0


def _describe(leaf: Leaf) -> str:
    return f"{leaf.dtype}{list(leaf.shape)}" if leaf.kind != TEXT else leaf.dtype
