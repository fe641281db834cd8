"""The module's immutable pytree classes and their array-annotated fields."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.values.fields import PytreeClass, pytree_classes

HEADER = (
    "import jax\nimport jax.numpy as jnp\nfrom typing import NamedTuple\nfrom flax import struct\n"
)


def classes(body: str) -> dict[str, PytreeClass]:
    code = HEADER + body
    return pytree_classes(ModuleContext("<t>", code, cst.parse_module(code)))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "class S(NamedTuple):\n    w: jnp.ndarray\n    n: int = 0\n",
            PytreeClass("S", ("w", "n"), frozenset({"w"}), "_replace"),
        ),
        (
            "@struct.dataclass\nclass S:\n    w: jax.Array\n"
            "    def energy(self):\n        return 0\n",
            PytreeClass("S", ("w",), frozenset({"w"}), "replace"),
        ),
        (
            "class S(NamedTuple):\n    w: jax.numpy.ndarray\n    '''Doc.'''\n",
            PytreeClass("S", ("w",), frozenset({"w"}), "_replace"),
        ),
    ],
)
def test_a_qualifying_class(body: str, expected: PytreeClass) -> None:
    assert classes(body) == {"S": expected}


@pytest.mark.parametrize(
    "body",
    [
        "class S:\n    w: jax.Array\n",  # not a pytree
        "from dataclasses import dataclass\n@dataclass\nclass S:\n    w: jax.Array\n",
        "import chex\n@chex.dataclass\nclass S:\n    w: jax.Array\n",  # mutable
        "@jax.tree_util.register_pytree_node_class\nclass S:\n    w: jax.Array\n",
        "@struct.dataclass(frozen=False)\nclass S:\n    w: jax.Array\n",
        "class S(NamedTuple):\n    w: jax.Array\nS = 1\n",  # rebound
        "class S(NamedTuple):\n    w: jax.Array\ndef f():\n    global S\n",
        "def f():\n    class S(NamedTuple):\n        w: jax.Array\n    return S\n",  # nested
        "class S(NamedTuple):\n    w: jax.Array\n    k = 3\n",  # a class attribute
        "@struct.dataclass\nclass S:\n    w: jax.Array\n"
        "    def __post_init__(self):\n        pass\n",
        "class S(NamedTuple):\n    w: jax.Array\n"
        "    @property\n    def w(self):\n        return 0\n",
    ],
)
def test_a_class_that_does_not_qualify(body: str) -> None:
    assert classes(body) == {}
