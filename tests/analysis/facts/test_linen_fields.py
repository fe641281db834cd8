"""Linen module classes whose fields cannot become variables."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.linen_fields import field_names, inert_fields
from tests.analysis.helpers import context

_C = "    @nn.compact\n    def __call__(self, x):\n"
_HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nimport flax.linen as nn\n"

_BLOCK = """
class Block(nn.Module):
    width: int
    rate: float

    @nn.compact
    def __call__(self, x):
        return nn.Dropout(self.rate, deterministic=True)(nn.Dense(self.width)(x))
"""


def _model(body: str, fields: str = "    width: int\n    depth: int\n") -> str:
    return _BLOCK + "\n\nclass Model(nn.Module):\n" + fields + "\n" + body


def _inert(code: str) -> bool:
    return inert_fields(context(code, _HEADER), "Model")


@pytest.mark.parametrize(
    ("body", "inert"),
    [
        # sizes, arithmetic, loops, shapes of new arrays, a set-up layer's output reshaped
        (
            "    def setup(self):\n"
            "        self.proj = nn.Dense(2 * self.width)\n"
            "        self.table = jnp.zeros((self.depth, self.width))\n\n"
            "    def __call__(self, x):\n"
            "        h = self.proj(x)\n"
            "        h = h.reshape(-1, self.width, 2)\n"
            "        for _ in range(self.depth):\n"
            "            x = x + self.table[0, : self.width]\n"
            "        return h if self.depth > 1 else -x\n",
            True,
        ),
        # a field given to a module class of the file, by position, inert there
        (
            _C + "        return Block(self.width, 0.1)(x)\n",
            True,
        ),
        # the shape of a parameter made by a library initializer
        (
            _C + "        w = self.param('w', nn.initializers.normal(0.02), (self.width, 2))\n"
            "        return x @ w\n",
            True,
        ),
        # a field called: it may be a module with arrays of its own
        (_C + "        return self.width(x)\n", False),
        # a field as a layer's initializer, or in the position of one
        (
            _C + "        return nn.Dense(3, kernel_init=self.width)(x)\n",
            False,
        ),
        (
            _C + "        return nn.Dense(3, True, None, None, None, self.width)(x)\n",
            False,
        ),
        # a field as the function making a parameter, or a variable's value
        (
            _C + "        return x + self.param('w', self.width, (3,))\n",
            False,
        ),
        (
            _C + "        return x + self.variable('c', 'w', jnp.zeros, self.width).value\n",
            False,
        ),
        # bound to a name, or handed to a function the class does not know
        (
            _C + "        w = self.width\n        return x * w\n",
            False,
        ),
        (
            _C + "        return jnp.asarray(self.width) + x\n",
            False,
        ),
        # reshaped with a field, but of the input, which may be any object
        (
            _C + "        return x.reshape(self.width, -1)\n",
            False,
        ),
        # `self` handed on: its fields may go anywhere
        (
            _C + "        return getattr(self, 'width') * x\n",
            False,
        ),
    ],
)
def test_inert_fields(body: str, inert: bool) -> None:
    assert _inert(_model(body)) is inert


def test_a_submodule_field_that_is_not_inert() -> None:
    leaky = _BLOCK.replace("nn.Dense(self.width)(x)", "nn.Dense(3, kernel_init=self.width)(x)")
    body = _C + "        return Block(self.width, 0.1)(x)\n"
    code = leaky + "\n\nclass Model(nn.Module):\n    width: int\n\n" + body
    assert not _inert(code)


def test_fields_are_the_annotated_names_of_a_linen_module_class() -> None:
    ctx = context(_BLOCK + "\n\nclass Other(Block):\n    extra: int\n", _HEADER)
    assert field_names(ctx, "Block") == ["width", "rate"]
    assert field_names(ctx, "Other") is None  # derives from a class of the file


_PATCH = """
def patchify(x, patch):
    b, n = x.shape
    x = x.reshape(b, n // patch, patch)
    return x.reshape(b, -1)


def dense(x, init):
    return nn.Dense(3, kernel_init=init)(x)
"""


@pytest.mark.parametrize(
    ("body", "inert"),
    [
        # given to a module function that reshapes an array with it: `jnp.asarray` makes
        # the array, bound on every path before the call
        (_C + "        x = jnp.asarray(x)\n        return patchify(x, self.width)\n", True),
        # an array given as an expression, not a name: not followed
        (
            _C + "        h = nn.Dense(4)(x)\n        return patchify(jnp.tanh(h), self.width)\n",
            False,
        ),
        # the input itself, which may be any object, reshaped there
        (_C + "        return patchify(x, self.width)\n", False),
        # an array only on one path: the input may reach the call
        (
            _C + "        if self.depth:\n            x = jnp.asarray(x)\n"
            "        return patchify(x, self.width)\n",
            False,
        ),
        # given to a layer as its initializer there
        (_C + "        return dense(x, self.width)\n", False),
        # behind `*args`: the parameter it binds is not known
        (_C + "        x = jnp.asarray(x)\n        return patchify(*(x, self.width))\n", False),
    ],
)
def test_a_field_given_to_a_module_function(body: str, inert: bool) -> None:
    assert _inert(_PATCH + _model(body)) is inert


def test_a_module_function_bound_twice_is_not_followed() -> None:
    body = _C + "        x = jnp.asarray(x)\n        return patchify(x, self.width)\n"
    rebound = _PATCH + "\npatchify = dense\n"
    assert not _inert(rebound + _model(body))
