"""The link a refused donation names: why a value passed in the same call may hold the
donated argument's buffers (`analysis/facts/alias_reasons.py`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.model import Applicability

from ..helpers import HEADER, context
from .test_unkept_arguments import BLOCKS

UNSAFE = Applicability.UNSAFE

STEP = "@jax.jit\ndef step(g, d):\n    return g + d.sum()\n\n\n"

BOUND = (
    STEP
    + """
import somelib

def main():
    g = jnp.zeros(3)
    d = somelib.wrap(g)
    for _ in range(3):
        g = step(g, d)
    print(g)
"""
)

PART = (
    STEP
    + """
class Holder:
    def __init__(self, w):
        self.w = w
        self.scale = jnp.ones(3)


def main():
    g = jnp.zeros(3)
    h = Holder(g)
    for _ in range(3):
        g = step(g, h.scale)
    print(g)
"""
)

#: `PART`, its field the array the holder was given: a part read not proven new buffers.
PART_GIVEN = PART.replace("self.scale = jnp.ones(3)", "self.scale = w")

KEPT = """
import somelib
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.fc = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        somelib.log(self)
        return self.fc(x)


@nnx.jit
def train_step(model, batch):
    return model(batch).sum()


model = Net(nnx.Rngs(0))
y = model(jnp.ones(2))
data = jnp.ones((4, 2))
loader = somelib.Loader(data)
for batch in loader:
    loss = train_step(model, batch)
"""

FILTER_JIT = """
import equinox as eqx


class Net(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (3,))


@eqx.filter_jit
def step_d(d, g):
    return g.w.sum(), eqx.apply_updates(d, d)


@eqx.filter_jit
def step_g(g, d):
    return d.w.sum(), eqx.apply_updates(g, g)


def train(g, d):
    for _ in range(3):
        loss, d = step_d(d, g)
        loss, g = step_g(g, d)
    return g, d


g, d = train(Net(jax.random.key(0)), Net(jax.random.key(1)))
"""


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        (
            BOUND,
            (
                [
                    (
                        "g",
                        UNSAFE,
                        "`d` may hold the buffers of `g` and is passed in the same call: `d` "
                        "is bound at line 14 to the result of `somelib.wrap`, given `g`",
                    )
                ],
                [],
            ),
        ),
        (
            # `h.scale` is proven new buffers (`wrapper_fields.field_clear`): the part read
            # links nothing, but `h` itself, which holds the first `g`, is read again by
            # the next iteration
            PART,
            ([], ["`h` may hold the buffers of `g` and is read at line 20"]),
        ),
        (
            PART_GIVEN,
            (
                [],
                [
                    "`h` may hold the buffers of `g` and is passed in the same call (as "
                    "`h.scale`, not proven to hold none of them: `self.scale` (line 13): `w` "
                    "is given `g`, which may hold them): `h` is bound at line 18 to the "
                    "result of `Holder`, given `g`"
                ],
            ),
        ),
        (
            KEPT,
            (
                [
                    (
                        "model",
                        UNSAFE,
                        "`batch` may hold the buffers of `model` and is passed in the same "
                        "call: `model(jnp.ones(2))` at line 23 runs code that may keep "
                        "`model`, and `batch` may hold what such code keeps",
                    )
                ],
                [],
            ),
        ),
    ],
)
def test_the_link_is_named(code: str, expected: tuple) -> None:
    ctx = context(code, HEADER)
    (target,) = targets(ctx)
    assert verdicts(ctx, target) == expected


def test_a_filter_jit_output_names_its_non_array_leaves() -> None:
    """The GAN's two steps: each output may hold, in a non-array leaf, an object the
    other model held (an `eqx.filter_jit` hands such leaves back as they are)."""
    ctx = context(FILTER_JIT, HEADER)
    found = {t.name: verdicts(ctx, t) for t in targets(ctx)}
    note = (
        " (an `eqx.filter_jit` returns non-array leaves as the trace made them, which may "
        "be objects an argument holds)"
    )
    assert found == {
        "step_d": (
            [
                (
                    "d",
                    UNSAFE,
                    "`g` may hold the buffers of `d` and is passed in the same call: `g` is "
                    "bound at line 27 to the result of `step_g`, given `d`" + note,
                )
            ],
            [],
        ),
        "step_g": (
            [
                (
                    "g",
                    UNSAFE,
                    "`d` may hold the buffers of `g` and is passed in the same call: `d` is "
                    "bound at line 26 to the result of `step_d`, given `g`" + note,
                )
            ],
            [],
        ),
    }


STEPPED = """
@nnx.jit
def train_step(model, x):
    return model(x).sum()


model = Net(rngs=nnx.Rngs(0))
y = model(jnp.ones((2, 8, 8, 3)))
for _ in range(3):
    loss = train_step(model, jnp.ones((2, 8, 8, 3)))
"""

TIED = (
    "cannot prove the leaves of `model` are distinct buffers: a module class of this file "
    "may hold one array in two variables (tied weights), or one of the caller's (`Net`)"
)
FC = "        self.fc = nnx.Linear(4, 2, rngs=rngs)\n"
BLOCKS_FIELD = "        self.blocks = nnx.Sequential("


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("", ""), (Applicability.SAFE, "")),  # `model(x)` proven to keep nothing
        ((FC, FC + "        self.head = self.fc\n"), (UNSAFE, TIED)),  # tied weights
        ((BLOCKS_FIELD, "        self.again = None\n" + BLOCKS_FIELD), (Applicability.SAFE, "")),
        (  # a module given another's submodule
            (FC, FC + "        self.again = self.blocks\n"),
            (UNSAFE, TIED),
        ),
    ],
)
def test_a_model_called_eagerly_is_donated_only_with_distinct_leaves(
    change: tuple[str, str], expected: tuple
) -> None:
    """The ResNet shape of `test_unkept_arguments.BLOCKS`, called once eagerly: the proof
    that the call keeps nothing lets the donation through only where no two fields share
    an array."""
    code = BLOCKS.replace(*change) + STEPPED
    ctx = context(code)
    (target,) = targets(ctx)
    (donation,), blocked = verdicts(ctx, target)
    assert (donation[1], donation[2]) == expected and not blocked
