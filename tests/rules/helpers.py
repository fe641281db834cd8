"""Run a program before and after autoopt's rewrite and compare what it computes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import jax
import numpy as np

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Result

OWN_RULES = ("AO401", "AO402", "AO501", "AO601")


def rewrite(source: str, rules: tuple[str, ...] = OWN_RULES, unsafe: bool = False) -> Result:
    return optimize_source(source, settings=Settings(select=rules, unsafe_fixes=unsafe))


def run_snippet(source: str) -> object:
    """Execute `source` as a module and return its `result` variable."""
    namespace: dict[str, object] = {"__name__": "snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    return jax.block_until_ready(namespace["result"])


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_main(path: Path, name: str, constants: dict[str, object] | None = None) -> object:
    """Import the program at `path` under `name`, set module `constants` (to shrink
    it), and return its `main()` result."""
    module = load_module(path, name)
    for key, value in (constants or {}).items():
        assert hasattr(module, key), key
        setattr(module, key, value)
    return jax.block_until_ready(module.main())


def assert_same(before: object, after: object, rtol: float = 1e-4) -> None:
    """Same pytree structure, shapes and dtypes; ints and bools exact, floats allclose."""
    leaves_a, tree_a = jax.tree.flatten(before)
    leaves_b, tree_b = jax.tree.flatten(after)
    assert tree_a == tree_b
    for a, b in zip(leaves_a, leaves_b, strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
        if a.dtype.kind in "iub" or a.dtype == np.dtype("uint32"):
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-6)
