"""Flattened pytrees as plain data: what a worker saves and the parent compares.

Pure numpy and json, so the autoopt process can read results without jax.
Arrays go to an `.npz` file, everything else to a `.json` file next to it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ARRAY = "array"  # numpy/jax arrays and numpy scalars
SCALAR = "scalar"  # Python bool/int/float/complex, kept as 0-d arrays
TEXT = "text"  # str, and repr() of anything else (addresses masked)


@dataclass
class Leaf:
    """One pytree leaf: where it sits, what it is, and its value."""

    path: str
    kind: str
    dtype: str  # numpy dtype name, or the Python type name for scalars and text
    shape: tuple[int, ...] = ()
    value: np.ndarray | str = field(default="", repr=False)


@dataclass
class FlatTree:
    """A pytree as its structure string plus its leaves in flatten order."""

    structure: str
    leaves: list[Leaf]


def save_tree(tree: FlatTree, directory: Path, name: str) -> None:
    """Write `tree` as `<name>.json` and `<name>.npz` under `directory`."""
    arrays = {f"a{i}": leaf.value for i, leaf in enumerate(tree.leaves) if leaf.kind != TEXT}
    np.savez(directory / f"{name}.npz", **arrays)  # type: ignore[arg-type]  # arrays, not options
    meta = {
        "structure": tree.structure,
        "leaves": [
            {
                "path": leaf.path,
                "kind": leaf.kind,
                "dtype": leaf.dtype,
                "shape": list(leaf.shape),
                "text": leaf.value if leaf.kind == TEXT else None,
            }
            for leaf in tree.leaves
        ],
    }
    (directory / f"{name}.json").write_text(json.dumps(meta))


def load_tree(directory: Path, name: str) -> FlatTree:
    """Read back what `save_tree` wrote."""
    meta = json.loads((directory / f"{name}.json").read_text())
    leaves = []
    with np.load(directory / f"{name}.npz", allow_pickle=False) as arrays:
        for i, item in enumerate(meta["leaves"]):
            value = item["text"] if item["kind"] == TEXT else arrays[f"a{i}"]
            leaves.append(
                Leaf(item["path"], item["kind"], item["dtype"], tuple(item["shape"]), value)
            )
    return FlatTree(meta["structure"], leaves)
