"""Calls that render their arguments and keep none (`analysis/facts/rendering.py`)."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.rendering import renders_only
from tests.analysis.helpers import context, stmt

HEADER = "import jax.numpy as jnp\nfrom flax import nnx\n"

SIMPLE = """
class Net(nnx.Module):
    def __init__(self, n_in: int = 4, n_hidden: int = 8, *, rngs: nnx.Rngs):
        self.n_in = n_in
        self.one = nnx.Linear(n_in, n_hidden, rngs=rngs)
        self.two = nnx.Linear(n_hidden, self.n_in, rngs=rngs)

    def __call__(self, x):
        return self.two(nnx.relu(self.one(x)))

    def widths(self):
        return self.n_in
"""

NESTED = """
class Block(nnx.Module):
    def __init__(self, size: int, down: bool = False, *, rngs: nnx.Rngs):
        strides = (2, 2) if down else (1, 1)
        self.body = nnx.Sequential(
            nnx.Conv(size, size, kernel_size=(3, 3), strides=strides, rngs=rngs),
            nnx.BatchNorm(size, momentum=0.9, rngs=rngs),
        )
        if down:
            self.skip = nnx.Conv(size, size, kernel_size=(1, 1), rngs=rngs)
        else:
            self.skip = lambda x: x


class Net(nnx.Module):
    def __init__(self, classes: int, *, rngs: nnx.Rngs):
        self.classes = classes
        self.blocks = nnx.Sequential(Block(4, rngs=rngs), Block(4, down=True, rngs=rngs))
        self.head = nnx.Linear(4, self.classes, rngs=rngs)
"""


def _display(code: str, line: str = "nnx.display(model)") -> bool:
    ctx = context(code, HEADER)
    at = stmt(ctx, line)
    call = at.node.value  # type: ignore[attr-defined]  # an Expr
    assert type(call) is cst.Call
    return renders_only(ctx, at, call)


@pytest.mark.parametrize(
    "code",
    [
        SIMPLE + "model = Net(rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        SIMPLE + "width = 4\nmodel = Net(width, 8, rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        NESTED + "model = Net(10, rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        "model = nnx.Linear(2, 3, use_bias=False, rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        "key = jnp.zeros(2, dtype=jnp.uint32)\n"
        "model = nnx.Linear(2, 3, rngs=nnx.Rngs(params=key))\nnnx.display(model)\n",
        "model = jnp.ones(3)\nx = 1\nnnx.display(model)\n",
    ],
)
def test_a_model_flax_alone_renders_is_kept_by_nothing(code: str) -> None:
    assert _display(code)


@pytest.mark.parametrize(
    "code",
    [
        # a rendering hook of the program's own may keep what it is given
        SIMPLE.replace("    def widths(self):", "    def __repr__(self):")
        + "model = Net(rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        SIMPLE.replace("    def widths(self):", "    def _repr_html_(self):")
        + "model = Net(rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        # a field holding an object of a class of the program
        "class Hook:\n    pass\n\n\nclass Net(nnx.Module):\n"
        "    def __init__(self):\n        self.hook = Hook()\n\n\n"
        "model = Net()\nnnx.display(model)\n",
        # the `rngs` itself kept in a field
        "class Net(nnx.Module):\n    def __init__(self, *, rngs):\n        self.rngs = rngs\n\n\n"
        "model = Net(rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        # an initializer of the program's, kept by the layer
        "def init(key, shape, dtype):\n    return jnp.zeros(shape, dtype)\n\n\n"
        "class Net(nnx.Module):\n    def __init__(self, *, rngs):\n"
        "        self.one = nnx.Linear(2, 3, kernel_init=init, rngs=rngs)\n\n\n"
        "model = Net(rngs=nnx.Rngs(0))\nnnx.display(model)\n",
        # a statement between the construction and the display may change the model
        SIMPLE + "model = Net(rngs=nnx.Rngs(0))\nmodel.extra = object()\nnnx.display(model)\n",
        # an argument of unknown kind given to the constructor
        SIMPLE + "def make(n, r):\n    model = Net(n, rngs=r)\n    nnx.display(model)\n",
        # a layer given something that is not an `nnx.Rngs`
        "def make(r):\n    model = nnx.Linear(2, 3, rngs=r)\n    nnx.display(model)\n",
        # a module whose construction is not seen
        "def make(model):\n    nnx.display(model)\n",
    ],
)
def test_a_model_whose_rendering_may_run_the_program_s_code_is_not_proven(code: str) -> None:
    assert not _display(code)


def test_another_call_is_not_rendering() -> None:
    assert not _display(SIMPLE + "model = Net(rngs=nnx.Rngs(0))\nprint(model)\n", "print(model)")
