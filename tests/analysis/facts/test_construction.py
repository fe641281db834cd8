"""What an attribute of `self` holds while the instance is being built."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.construction import constructing, stored_calls
from tests.analysis.helpers import context, stmt

_HEADER = "import jax\nimport jax.numpy as jnp\nimport flax.linen as nn\n"
_TRAINER = """
class Trainer:
    def __init__(self, width):
        super().__init__()
        self.model = nn.Dense(width)
        self.init_model()

    def init_model(self):
        self.params = self.model.init(jax.random.PRNGKey(0), jnp.ones(3))

    def train(self):
        return self.params


def main():
    trainer = Trainer(3)
    trainer.model = None
    return trainer.train()
"""


def _calls(code: str) -> list[str] | None:
    ctx = context(code, _HEADER)
    at = stmt(ctx, "self.params = self.model.init(jax.random.PRNGKey(0), jnp.ones(3))")
    assert type(at.node) is cst.Assign
    call = at.node.value
    assert type(call) is cst.Call and type(call.func) is cst.Attribute
    assert type(call.func.value) is cst.Attribute
    found = stored_calls(ctx, at.scope, call.func.value)
    return None if found is None else [ctx.code(c) for c in found]


def test_a_method_run_only_from_init_sees_the_class_s_stores() -> None:
    assert _calls(_TRAINER) == ["nn.Dense(width)"]
    ctx = context(_TRAINER, _HEADER)
    assert constructing(ctx, "Trainer") == {"Trainer.__init__", "Trainer.init_model"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # called again after the instance was built, by its own method or from outside
        ("        return self.params\n", "        self.init_model()\n        return self.params\n"),
        ("    return trainer.train()", "    trainer.init_model()\n    return trainer.train()"),
        # `__init__` run again on a built instance
        ("    return trainer.train()", "    trainer.__init__(4)\n    return trainer.train()"),
        # taken as a value, or called from a lambda that may run later
        ("        self.init_model()\n", "        self.hook = self.init_model\n"),
        ("        self.init_model()\n", "        self.hook = lambda: self.init_model()\n"),
        # a store that is no call, a class attribute read before any store
        ("        self.model = nn.Dense(width)\n", "        self.model = MODEL\n"),
        ("class Trainer:\n", "class Trainer:\n    model = MODEL\n"),
        # `self` handed on while built: other code may store into it
        ("        super().__init__()\n", "        REGISTRY.append(self)\n"),
        # a base class whose code autoopt does not read
        ("class Trainer:\n", "class Trainer(Base):\n"),
    ],
)
def test_not_proven(old: str, new: str) -> None:
    code = _TRAINER.replace(old, new)
    assert code != _TRAINER
    assert _calls(code) is None
