"""A global a function reads only while it still holds an import."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.shadowed_imports import reads_import_only
from tests.analysis.helpers import context

_HEAD = """
from flax.training import train_state


def make():
    return train_state.TrainState
"""


def _reads_import(tail: str) -> bool:
    ctx = context(_HEAD + tail)
    return reads_import_only(ctx, ctx.graph.functions["make"], "train_state")


@pytest.mark.parametrize(
    ("tail", "proven"),
    [
        ("train_state = make()\nprint(train_state)\n", True),
        ("x = make()\ntrain_state = make()\n", True),
        ("train_state = make()\ntrain_state = make()\n", False),  # the second reads the value
        ("for _ in range(2):\n    train_state = make()\n", False),  # a loop with the binding
        ("def later():\n    return make()\n\ntrain_state = make()\nlater()\n", False),
        ("train_state = make()\nf = make\n", False),  # handed out: callers unknown
        ("train_state = [make() for _ in range(2)]\n", False),  # in a comprehension
        ("run = lambda: make()\ntrain_state = run()\n", False),  # in a lambda
        ("print(train_state)\n", False),  # never called
        (
            "def reset():\n    global train_state\n    train_state = 1\n\ntrain_state = make()\n",
            False,
        ),
        ('globals()["train_state"] = 1\ntrain_state = make()\n', False),
    ],
)
def test_reads_import_only(tail: str, proven: bool) -> None:
    assert _reads_import(tail) is proven


def test_a_binding_before_that_is_no_import() -> None:
    ctx = context("train_state = 1\n" + _HEAD + "train_state = make()\n")
    assert not reads_import_only(ctx, ctx.graph.functions["make"], "train_state")
