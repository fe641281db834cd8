"""Helpers of the overlay tests."""

from __future__ import annotations

import importlib
import warnings

MISSING = object()


def resolve(qual: str) -> bool:
    """Whether `qual` names something in the installed libraries (deprecated or not)."""
    return lookup(qual) is not MISSING


def lookup(qual: str) -> object:
    """What `qual` names in the installed libraries, or `MISSING`."""
    parts = qual.split(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for part in parts[i:]:
                obj = getattr(obj, part, MISSING)
            return obj
    return MISSING


def leaves_equal(a, b) -> bool:
    """Whether two pytrees have the same structure and equal array leaves."""
    import jax
    import numpy as np

    same = jax.tree.structure(a) == jax.tree.structure(b)
    return same and all(
        np.array_equal(x, y) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
    )


def pointers(tree) -> set[int]:
    """The device buffers of a pytree's array leaves."""
    import jax

    return {x.unsafe_buffer_pointer() for x in jax.tree.leaves(tree) if isinstance(x, jax.Array)}


def snapshot(tree):
    """A host copy of a pytree's array leaves, to check later that nothing changed them."""
    import jax
    import numpy as np

    return jax.tree.map(lambda x: np.array(x) if isinstance(x, jax.Array) else x, tree)


def fresh_leaves(tree, *inputs) -> bool:
    """Whether a pytree's array leaves are distinct buffers, none of `inputs`'."""
    import jax

    found = [x.unsafe_buffer_pointer() for x in jax.tree.leaves(tree) if isinstance(x, jax.Array)]
    return len(found) == len(set(found)) and not set(found) & pointers(inputs)


def carries_no_buffer(value, depth: int = 0) -> bool:
    """Whether `value` holds no array and no mutable object that could take one: a number,
    a string, None, a dtype or class, a tuple or read-only mapping of those, or a
    function of jax, flax or optax whose closure and defaults are such values."""
    import types

    import numpy as np

    if depth > 12:
        return False
    if value is None or isinstance(value, int | float | str | bool | type):
        return True
    if isinstance(value, tuple):  # a NamedTuple too (optax's transformations)
        return all(carries_no_buffer(v, depth + 1) for v in value)
    if type(value).__name__ == "HashableMapping":  # flax's read-only mapping
        return all(carries_no_buffer(v, depth + 1) for v in value.values())
    if isinstance(value, types.FunctionType):
        if not value.__module__.startswith(("jax", "flax", "optax")):
            return False
        cells = [c.cell_contents for c in value.__closure__ or ()]
        return all(carries_no_buffer(v, depth + 1) for v in [*cells, *(value.__defaults__ or ())])
    return isinstance(value, np.dtype)


def node_kinds(tree) -> set[type]:
    """The classes of every pytree node of `tree` (its leaves left out)."""
    import jax

    def walk(treedef) -> set[type]:
        data = treedef.node_data()
        if data is None:
            return set()
        return {data[0]}.union(*(walk(child) for child in treedef.children()))

    return walk(jax.tree_util.tree_structure(tree))
