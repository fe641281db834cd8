"""Qualified names from the module's own imports."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.names import collect_imports, dotted

IMPORTS = """
import jax
import jax.numpy as jnp
from jax import lax, numpy as np_
import os.path
from . import sibling
from .pkg import thing
from numpy import *
import jax as J

def f():
    from functools import partial
"""


def test_bindings_cover_every_import_but_relative_and_star_ones() -> None:
    imports = collect_imports(cst.parse_module(IMPORTS))
    assert imports.bindings == {
        "jax": "jax",
        "jnp": "jax.numpy",
        "lax": "jax.lax",
        "np_": "jax.numpy",
        "os": "os",
        "J": "jax",
        "partial": "functools.partial",  # imports inside functions count too
    }
    assert len(imports.import_nodes) == 9


@pytest.mark.parametrize(
    ("expr", "qualified"),
    [
        ("jnp.zeros", "jax.numpy.zeros"),
        ("lax.scan", "jax.lax.scan"),
        ("np_.ones", "jax.numpy.ones"),
        ("os.path.join", "os.path.join"),
        ("J.jit", "jax.jit"),
        ("jax", "jax"),
        ("partial", "functools.partial"),
        ("thing", None),  # relative import
        ("zeros", None),  # star import
        ("x.y", None),
        ("f(x).y", None),
    ],
)
def test_qualify(expr: str, qualified: str | None) -> None:
    imports = collect_imports(cst.parse_module(IMPORTS))
    assert imports.qualify(cst.parse_expression(expr)) == qualified


def test_module_bindings_leave_out_imports_in_functions_and_classes() -> None:
    source = IMPORTS + "\nclass C:\n    import math\n\nif flag:\n    import pickle as pk\n"
    imports = collect_imports(cst.parse_module(source))
    assert imports.module_bindings == {
        "jax": "jax",
        "jnp": "jax.numpy",
        "lax": "jax.lax",
        "np_": "jax.numpy",
        "os": "os",
        "J": "jax",
        "pk": "pickle",  # a module-level block binds a module-level name
    }
    assert imports.bindings["partial"] == "functools.partial"  # still qualified
    assert imports.bindings["math"] == "math"
    assert imports.alias_for("functools.partial") is None
    assert imports.alias_for("math") is None


@pytest.mark.parametrize(
    ("expr", "module"),
    [
        ("jnp", True),
        ("J", True),
        ("os", False),  # a module autoopt does not know
        ("lax", True),  # `from jax import lax`, a module autoopt knows
        ("np_", True),
        ("jax.numpy", True),
        ("jax.lax", True),
        ("partial", False),  # a function
        ("os.environ", False),  # an object a module holds
        ("jnp.zeros", False),
        ("x", False),
    ],
)
def test_is_module(expr: str, module: bool) -> None:
    imports = collect_imports(cst.parse_module(IMPORTS))
    assert imports.is_module(cst.parse_expression(expr)) is module


def test_alias_for_and_uses_jax() -> None:
    imports = collect_imports(cst.parse_module(IMPORTS))
    assert imports.alias_for("jax") == "jax"
    assert imports.alias_for("jax.numpy") == "jnp"
    assert imports.alias_for("numpy") is None
    assert imports.uses_jax()
    assert not collect_imports(
        cst.parse_module("import numpy as np\nimport jaxtyping\n")
    ).uses_jax()
    assert collect_imports(cst.parse_module("from jax import numpy\n")).uses_jax()


@pytest.mark.parametrize(
    ("expr", "text"),
    [("a", "a"), ("a.b.c", "a.b.c"), ("a().b", None), ("a[0].b", None), ("1", None)],
)
def test_dotted(expr: str, text: str | None) -> None:
    assert dotted(cst.parse_expression(expr)) == text


def test_first_jax_import() -> None:
    import libcst as cst

    from autoopt.analysis.core.names import first_jax_import

    body = list(cst.parse_module("import os\nx = 1\nfrom jax import numpy\nimport jax\n").body)
    assert first_jax_import(body) == 2
    assert first_jax_import(list(cst.parse_module("import numpy\n").body)) is None
