"""A linen field handed to a shape method of an object of unknown kind
(`x.reshape(b, -1, self.patch)`, `x` the input of `__call__`): inert only where every
value that may then hold it stays on the data path (`facts/linen_data.py`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.linen_fields import inert_fields
from tests.analysis.helpers import context

_HEADER = "import jax\nimport jax.numpy as jnp\nimport flax.linen as nn\n"
_MODEL = """
def patches(x, p):
    b, n = x.shape
    x = x.reshape(b, n // p, p)
    x = x.transpose(0, 2, 1)
    return x.reshape(b, -1, *x.shape[2:])


class Model(nn.Module):
    width: int
    patch: int

    def setup(self):
        self.proj = nn.Dense(self.width)
        self.drop = nn.Dropout(0.1)
        self.token = self.param("token", nn.initializers.normal(1.0), (1, 1, self.width))

    def __call__(self, x, train=True):
        x = patches(x, self.patch)
        b, t, _ = x.shape
        x = self.proj(x)
        tok = self.token.repeat(b, axis=0)
        BODY
"""
_END = "return jnp.concatenate([tok, x], axis=1)[:, : t + 1]"


def _inert(old: str = "", new: str = "", extra: str = "") -> bool:
    code = _MODEL.replace("BODY", _END).replace(old, new) + extra
    assert old in _MODEL.replace("BODY", _END), old
    return inert_fields(context(code, _HEADER), "Model")


def test_the_patch_size_stays_on_the_data_path() -> None:
    assert _inert()
    # through a Dropout, whose output is followed, into a set-up layer
    assert _inert("x = self.proj(x)", "x = self.proj(self.drop(x, deterministic=not train))")
    assert _inert(_END, "return x")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the patches, or the input object, which may keep the field, returned by
        # `__call__` (what the layer makes of them is new)
        ("x = self.proj(x)", "return x"),
        ("x = patches(x, self.patch)", "y = patches(x, self.patch)\n        return x"),
        # a Dropout may return its input itself
        ("x = self.proj(x)", "return self.drop(x, deterministic=True)"),
        # a method of the object other than a shape method
        ("    x = x.transpose(0, 2, 1)\n", "    x = x.keep()\n"),
        ("    x = x.transpose(0, 2, 1)\n", "    x = x.transpose(0, 2, 1)\n    x.keep()\n"),
        # the object given the field is one the input holds too (`x.parts` after)
        ("    b, n = x.shape\n", "    b, n = x.shape\n    x = x.parts[0]\n"),
        # handed to a layer built inline, or as another argument than the input
        ("x = self.proj(x)", "x = nn.Dense(3)(x)"),
        ("x = self.proj(x)", "x = self.proj(tok, x)"),
        # stored in a container
        ("x = self.proj(x)", "x = self.proj(jnp.stack([x]))"),
    ],
)
def test_off_the_data_path(old: str, new: str) -> None:
    assert not _inert(old, new)


def test_a_model_also_used_as_a_submodule_is_not_followed() -> None:
    outer = (
        "\n\nclass Outer(nn.Module):\n    @nn.compact\n    def __call__(self, x):\n"
        "        return Model(4, 2)(x).sum()\n"
    )
    assert not _inert(extra=outer)
    derived = "\n\nclass Other(Model):\n    pass\n"
    assert not _inert(extra=derived)
    trainer = "\n\nclass Trainer:\n    def __init__(self):\n        self.m = Model(4, 2)\n"
    assert _inert(extra=trainer)
