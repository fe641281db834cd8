"""Which methods of a trainer class run only before, or only after, its steps."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.trainer_steps import confinement
from tests.analysis.helpers import HEADER, context

_TRAINER = """
@jax.jit
def step(state, x):
    return state + x


class Trainer:
    def __init__(self):
        self.setup()

    def setup(self):
        self.state = jnp.zeros(3)

    def prepare(self):
        self.state = self.state * 2

    def train(self, xs):
        self.prepare()
        for x in xs:
            self.state = step(self.state, x)

    def report(self):
        return self.state


def main(xs):
    trainer = Trainer()
    trainer.train(xs)
    return trainer.report()
"""


def _before(code: str) -> frozenset[str]:
    found = confinement(context(code, HEADER), "Trainer", "state")
    assert found.reason is None
    return found.before


def test_methods_before_the_steps() -> None:
    assert _before(_TRAINER) == {"Trainer.__init__", "Trainer.setup", "Trainer.prepare"}
    assert confinement(context(_TRAINER, HEADER), "Trainer", "state").after == {"Trainer.report"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the step method runs twice on the holder: its set-up follows steps the second time
        ("    trainer.train(xs)\n", "    trainer.train(xs)\n    trainer.train(xs)\n"),
        ("    trainer.train(xs)\n", "    for _ in range(2):\n        trainer.train(xs)\n"),
        # set up after the first step statement, or in the loop with it
        (
            "        self.prepare()\n        for x in xs:\n",
            "        for x in xs:\n            self.prepare()\n",
        ),
        # another method runs the step method: not called first by a holder alone
        (
            "    def report(self):",
            "    def again(self, xs):\n        self.train(xs)\n\n    def report(self):",
        ),
        # named other than called on `self`
        ("    trainer.train(xs)\n", "    trainer.prepare()\n    trainer.train(xs)\n"),
    ],
)
def test_not_before_the_steps(old: str, new: str) -> None:
    code = _TRAINER.replace(old, new)
    assert code != _TRAINER
    assert "Trainer.prepare" not in _before(code)
