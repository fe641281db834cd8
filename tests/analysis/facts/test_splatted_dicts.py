"""`**self.hparams` read as the dict literal every building passes (`facts/splatted_dicts.py`),
as `fresh_result` reads `self.model.init(...)` in a trainer built with it."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.fresh import fresh_result

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import flax.linen as nn\n"
PROGRAM = """
WARM = nn.Dense(4, kernel_init=nn.initializers.constant(jnp.eye(4)))


class Model(nn.Module):
    width: int
    act_fn: object

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.width)(self.act_fn(nn.Dense(4)(x)))


class Other(nn.Module):
    act_fn: object

    @nn.compact
    def __call__(self, x):
        return self.act_fn(nn.Dense(2)(x))


class Trainer:
    def __init__(self, model_class, model_hparams, exmp):
        self.model_class = model_class
        self.model_hparams = model_hparams
        self.model = self.model_class(**self.model_hparams)
        self.init_model(exmp)

    def init_model(self, exmp):
        self.params = self.model.init(jax.random.PRNGKey(0), exmp)


def train(*args, **kwargs):
    return Trainer(*args, **kwargs)


def main(x):
    a = train(model_class=Model, model_hparams={"width": 3, "act_fn": nn.relu}, exmp=x)
    b = train(model_class=Other, model_hparams={"act_fn": nn.gelu}, exmp=x)
"""
_INIT = "self.params = self.model.init(jax.random.PRNGKey(0), exmp)"


def _fresh(program: str) -> bool:
    ctx = context(program, IMPORTS)
    at = stmt(ctx, _INIT)
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    return fresh_result(ctx, at, at.node.value)


def test_every_building_s_literal_gives_called_jax_functions() -> None:
    assert _fresh(PROGRAM)


_CHANGES = {
    # `__init__` changes the dict before the model is built from it
    "init": (
        "        self.model_hparams = model_hparams\n",
        "        model_hparams['act_fn'] = WARM\n        self.model_hparams = model_hparams\n",
    ),
    # a method run while the instance is built changes it through `self`
    "method": (
        "        self.model = self",
        "        self.warm()\n        self.model = self",
        "    def init_model(",
        "    def warm(self):\n        self.model_hparams['act_fn'] = WARM\n\n    def init_model(",
    ),
    # read other than by `**` (a `pop` changes it)
    "pop": (
        "        self.model = self",
        "        self.model_hparams.pop('width')\n        self.model = self",
    ),
    # held by another attribute too, which may change it
    "copied": (
        "        self.model_hparams = model_hparams\n",
        "        self.model_hparams = model_hparams\n        self.saved = model_hparams\n",
    ),
    # one building passes a name, not a literal: the dict may be anyone's
    "named": ('model_hparams={"act_fn": nn.gelu}', "model_hparams=GELU"),
    # a literal with a `**` entry: keys from a dict not in sight
    "merged": ('model_hparams={"act_fn": nn.gelu}', 'model_hparams={**BASE, "act_fn": nn.gelu}'),
    # a building gives the called field a layer, whose variables are its own code's
    "layer": ('{"act_fn": nn.gelu}', '{"act_fn": WARM}'),
    # the trainer class handed out: buildings not in sight
    "escaped": ("def main(x):", "TRAINERS = [Trainer]\n\n\ndef main(x):"),
}


@pytest.mark.parametrize("change", sorted(_CHANGES))
def test_a_dict_changed_or_not_seen_is_not_followed(change: str) -> None:
    program, edits = PROGRAM, _CHANGES[change]
    for old, new in zip(edits[::2], edits[1::2], strict=True):
        assert old in program
        program = program.replace(old, new, 1)
    assert not _fresh(program)
