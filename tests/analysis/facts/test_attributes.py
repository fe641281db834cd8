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
        ("pass", ("def main():", "def main(make=Trainer):"), _UNSAFE, "used as a value"),
        ("keep = self.state\n            print(keep)", ("", ""), _NONE, "`keep`"),
        ("self.state = step(self.state, self.state)", ("", ""), _NONE, "passed twice"),
    ],
)
def test_each_premise_names_its_doubt(extra, replace, fix, doubt) -> None:
    found = _verdict(extra, replace)
    assert found is not None and found[0] is fix and doubt in found[1], found


def test_a_second_call_with_another_attribute_donates_nothing() -> None:
    assert _verdict("self.other = step(self.start, batch)") is None


_MAIN = "Trainer().fit([jnp.ones(3)])"


@pytest.mark.parametrize(
    "main",
    [
        "t = Trainer()\n    t.fit([jnp.ones(3)])\n    print(t.state)",  # read after training
        "t = Trainer()\n    t.fit([jnp.ones(3)])\n    KEEP.append(t.state)\n    return t",
        "t = Trainer()\n    t.fit([jnp.ones(3)])\n    u = copy.copy(t)\n    print(u.state)",
    ],
)
def test_an_instance_no_step_runs_on_again_may_be_read_outside(main: str) -> None:
    assert _verdict(replace=(_MAIN, main)) == (_SAFE, "")


@pytest.mark.parametrize(
    ("main", "doubt"),
    [
        (  # kept, then read after more training
            "t = Trainer()\n    saved = t.state\n    t.fit([1])\n    print(saved)",
            "`t.state` at line 23 reaches `.state` outside `Trainer`, and a step may run on "
            "that instance after it (line 24)",
        ),
        (  # handed to code that stores it on a list, then more training
            "t = Trainer()\n    t.fit([1])\n    stash(t.state)\n    t.fit([1])",
            "`t.state` at line 24 reaches `.state` outside `Trainer`",
        ),
        (  # a copy shares `.state`
            "t = Trainer()\n    u = copy.copy(t)\n    t.fit([1])\n    print(u.state)",
            "`t` is used other than through its attributes at line 23, and a step may run on "
            "it after (line 24): code it reaches may copy it, sharing `.state`",
        ),
        (  # the copy is trained: an instance autoopt does not follow
            "t = Trainer()\n    t.fit([1])\n    u = copy.copy(t)\n    u.fit([1])",
            "`u.fit` at line 25 may run the step of `Trainer` on an instance autoopt does not",
        ),
        (  # read in a loop that trains again
            "t = Trainer()\n    for _ in range(2):\n        t.fit([1])\n        print(t.state)",
            "`t.state` at line 25 reaches `.state` outside `Trainer`",
        ),
        (
            "t = Trainer()\n    fit = t.fit\n    fit([1])\n    print(t.state)",
            "`t.fit` at line 23 may run the step of `Trainer` on an instance autoopt does not",
        ),
        (
            "t = Trainer()\n    t = other\n    t.fit([1])\n    print(t.state)",
            "`t` holds an instance of `Trainer` and is bound otherwise at line 23",
        ),
        (  # a step deferred in a lambda runs after the read
            "t = Trainer()\n    again = lambda: t.fit([1])\n    print(t.state)\n    again()",
            "`t.fit` at line 23 may run the step of `Trainer` on an instance autoopt does not",
        ),
        (  # the comprehension's `t` is another instance, read before it steps
            "u = Trainer()\n    u.fit([1])\n    saved = u.state\n    ts = [u]\n"
            "    t = Trainer()\n    [t.fit([1]) for t in ts]\n    print(saved)",
            "`t.fit` at line 27 may run the step of `Trainer` on an instance autoopt does not",
        ),
        (
            "t = Trainer()\n    def again():\n        t.fit([1])\n    again()\n    print(t.state)",
            "`t`, which holds an instance of `Trainer`, is shared with other scopes",
        ),
    ],
)
def test_an_outside_read_a_step_may_follow_is_unsafe(main: str, doubt: str) -> None:
    found = _verdict(replace=(_MAIN, main))
    assert found is not None and found[0] is _UNSAFE and found[1].startswith(doubt), found


_EXPORT = "\n    def export(self):\n        KEEP.append(self.state)\n\ndef main():"


def test_a_step_run_inside_the_class_on_another_instance_is_not_followed() -> None:
    spawn = "\n    def spawn(self):\n        o = Trainer()\n        s = o.state\n"
    spawn += "        o.fit([1])\n        return s\n\ndef main():"
    code = TRAINER.replace("EXTRA", "pass").replace("\ndef main():", spawn)
    code = code.replace(_MAIN, "t = Trainer()\n    t.fit([1])\n    print(t.state)")
    ctx = context(code, HEADER)
    (target,) = targets(ctx, "step")
    donate, _ = verdicts(ctx, target)
    assert donate[0][1] is _UNSAFE
    assert donate[0][2].startswith("`o.fit` at line 24 may run the step of `Trainer`"), donate


def test_a_method_run_only_after_the_steps_may_keep_the_attribute() -> None:
    assert _after_export("t.fit([1])\n    t.export()") == (_SAFE, "")
    found = _after_export("t.export()\n    t.fit([1])")
    assert found is not None and found[0] is _UNSAFE, found
    assert found[1].startswith("`self.state` is read at line 22"), found


def _after_export(calls: str):
    code = TRAINER.replace("EXTRA", "pass").replace("\ndef main():", _EXPORT)
    code = code.replace(_MAIN, f"t = Trainer()\n    {calls}")
    ctx = context(code, HEADER)
    (target,) = targets(ctx, "step")
    donate, _ = verdicts(ctx, target)
    return (donate[0][1], donate[0][2]) if donate else None
