"""Code a class of the module runs with no call written: properties, special methods."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.syntax_hooks import keeping_hook
from tests.analysis.helpers import context

MODEL = """
import functools

import equinox as eqx
import jax
import jax.numpy as jnp

SEEN = []


class Model(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2,))

    def __call__(self, x):
        return x @ self.w

    @property
    def norm(self):
        return jnp.sqrt(jnp.sum(self.w**2))

    @staticmethod
    def zeros():
        return jnp.zeros(2)

    @functools.partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x * 2


class Loader:
    def __init__(self, data):
        self.data = data
        self.i = 0

    def __next__(self):
        self.i += 1
        return self.data[self.i]
"""


def test_reading_properties_and_plain_classes_keeps_nothing() -> None:
    """A property whose getter keeps nothing, a static method, a method a JAX transform
    decorates, and a plain class's special method reading no module state."""
    assert keeping_hook(context(MODEL)) == ""


@pytest.mark.parametrize(
    ("old", "new", "hook"),
    [
        # the getter keeps the weight in a module list
        (
            "        return jnp.sqrt(jnp.sum(self.w**2))\n",
            "        SEEN.append(self.w)\n        return jnp.sqrt(jnp.sum(self.w**2))\n",
            "`Model.norm` (a descriptor: reading the attribute runs it)",
        ),
        # a cached property stores its value in the object
        ("    @property\n", "    @functools.cached_property\n", "`Model.norm` (a descriptor"),
        # a decorator of the program's may make any descriptor
        ("    @property\n", "    @registered\n", "`Model.norm` (a descriptor"),
        # `model[0]` runs `__getitem__`
        (
            "    @property\n",
            "    def __getitem__(self, i):\n        SEEN.append(self.w)\n"
            "        return self.w[i]\n\n    @property\n",
            "`Model.__getitem__` (syntax on the object runs it)",
        ),
        # a plain class's special method that reads a module list
        (
            "        self.i += 1\n",
            "        self.i += 1\n        SEEN.append(self.data)\n",
            "`Loader.__next__`",
        ),
        # a class with a base is no plain class: its objects may be pytree nodes
        ("class Loader:", "class Loader(Base):", "`Loader.__next__`"),
        # a plain class's special method that puts its buffers into another object
        (
            "    def __next__(self):\n",
            "    def __eq__(self, other):\n        other.seen.append(self.data)\n"
            "        return True\n\n    def __next__(self):\n",
            "`Loader.__eq__`",
        ),
    ],
)
def test_a_hook_that_may_keep_is_named(old: str, new: str, hook: str) -> None:
    assert old in MODEL
    found = keeping_hook(context(MODEL.replace(old, new, 1)))
    assert found.startswith(hook) and found.endswith("may keep what its object holds")
