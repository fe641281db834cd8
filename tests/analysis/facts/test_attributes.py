"""Donation of `self.x` (`attribute_verdict`): each premise, with the doubt it yields."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.model import Applicability

from ..helpers import HEADER, context

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
_ZEROS = "(self):\n        self.state = jnp.zeros(3)"
TRAINER = """
@jax.jit
def step(state, batch):
    return state + batch

@jax.jit
def score(state, batch):
    return (state * batch).sum()

class Trainer:
    def __init__(self):
        self.state = jnp.zeros(3)

    def fit(self, batches):
        for batch in batches:
            self.state = step(self.state, batch)
            EXTRA

def main():
    Trainer().fit([jnp.ones(3)])
"""


def _verdict(extra: str = "pass", replace: tuple[str, str] = ("", "")):
    code = TRAINER.replace("EXTRA", extra).replace(*replace)
    ctx = context(code, HEADER)
    (target,) = targets(ctx, "step")
    donate, blocked = verdicts(ctx, target)
    if donate:
        return donate[0][1], donate[0][2]
    return (_NONE, blocked[0]) if blocked else None


def test_a_closed_trainer_donates_safely() -> None:
    assert _verdict() == (_SAFE, "")
    assert _verdict("score(self.state, batch)") == (_SAFE, "")  # a jitted read keeps nothing
    assert _verdict("assert self.state is not None") == (_SAFE, "")


@pytest.mark.parametrize(
    ("extra", "replace", "fix", "doubt"),
    [
        ("print(self.state)", ("", ""), _UNSAFE, "`self.state` is read at line"),
        ("log(self)", ("", ""), _UNSAFE, "`self` is used other than through its attributes"),
        ("pass", ("class Trainer:", "class Trainer(Base):"), _UNSAFE, "derives from `Base`"),
        ("pass", ("Trainer().fit", "t = Trainer(); t.state = 1; t.fit"), _UNSAFE, "outside"),
        ("pass", ("def main():", "def main():\n    getattr(1, 'x')"), _UNSAFE, "`getattr`"),
        ("pass", ("jnp.zeros(3)", "GLOBAL"), _UNSAFE, "may hold `GLOBAL`"),
        ("pass", ("def __init__(self):", "def __init__(self, s=None):"), _SAFE, ""),
        ("pass", (_ZEROS, "(self, s):\n        self.state = s"), _UNSAFE, "may hold `s`"),
        ("self.state += 1", ("", ""), _UNSAFE, "other than by `=`"),
        ("pass", ("self.state = step(", "self.state = keep = step("), _UNSAFE, "bound twice"),
        ("pass", ("class Trainer:", "@dataclass\nclass Trainer:"), _UNSAFE, "decorated"),
        ("pass", ("Trainer().fit(", "t = Trainer(); u = copy(t); t.fit("), _UNSAFE, "copy it"),
        ("pass", ("Trainer().fit(", "run(Trainer()).fit("), _UNSAFE, "copy it"),
        ("keep = self.state\n            print(keep)", ("", ""), _NONE, "`keep`"),
        ("self.state = step(self.state, self.state)", ("", ""), _NONE, "passed twice"),
    ],
)
def test_each_premise_names_its_doubt(extra, replace, fix, doubt) -> None:
    found = _verdict(extra, replace)
    assert found is not None and found[0] is fix and doubt in found[1], found


def test_a_second_call_with_another_attribute_donates_nothing() -> None:
    assert _verdict("self.other = step(self.start, batch)") is None
