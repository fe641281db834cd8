"""The region a rewrite changed, and that region timed alone in the steady-state view."""

from __future__ import annotations

import pytest

from autoopt.verify import verify_rewrite
from autoopt.verify.region import changed_lines, changed_region
from autoopt.verify.report import Verdict

PROGRAM = """\
import jax.numpy as jnp

SCALE = 2.0


def step(x):
    for _ in range(20):
        x = jnp.sin(x) * 0.5 + jnp.cos(x) * 0.25
    return x


def main():
    x = jnp.linspace(0.0, 1.0, 2000)
    for _ in range(30):
        x = step(x)
    return x
"""
JITTED = PROGRAM.replace("import jax.numpy", "import jax\nimport jax.numpy").replace(
    "def step(x):", "@jax.jit\ndef step(x):"
)
HOISTED = (
    PROGRAM.replace(
        "    for _ in range(30):\n        x = step(x)\n",
        "    x = _steps(x)\n",
    )
    .replace(
        "def main():",
        "@jax.jit\ndef _steps(x):\n    for _ in range(30):\n        x = step(x)\n    return x\n\n\n"
        "def main():",
    )
    .replace("import jax.numpy", "import jax\nimport jax.numpy")
)


@pytest.mark.parametrize(
    ("rewritten", "region"),
    [
        (JITTED, "step"),  # a decorator and an import
        (HOISTED, "main"),  # a new module-level function called from main
        (PROGRAM.replace("SCALE = 2.0", "SCALE = 3.0"), None),  # a module-level statement
        (JITTED.replace("SCALE = 2.0", "SCALE = 3.0"), None),  # step and module level
        (PROGRAM.replace("range(20)", "range(21)").replace("range(30)", "range(31)"), None),
        (PROGRAM, None),  # nothing changed
        (PROGRAM + "\ndef broken(:\n", None),  # does not parse
    ],
)
def test_the_region_is_the_function_enclosing_every_change(rewritten, region) -> None:
    assert changed_region(PROGRAM, rewritten) == region


def test_changed_lines_skip_blank_lines() -> None:
    before, after = changed_lines("a = 1\n\nb = 2\n", "a = 1\n\n\nc = 3\nb = 2\n")
    assert before == set() and after == {4}


def test_a_nested_function_counts_for_the_function_around_it() -> None:
    nested = PROGRAM.replace("def main():", "def main():\n    def inner(y):\n        return y\n")
    changed = nested.replace("return y\n", "return y + 0\n")
    assert changed_region(nested, changed) == "main"


def test_the_rewritten_function_is_timed_alone(program, fast) -> None:
    """No target is given: the region, `step`, is found from the changed lines, its calls
    captured and replayed against the rewrite's `step`, with no process start in the clock."""
    path = program(PROGRAM)
    report = verify_rewrite(path, JITTED, rule="AO101", options=fast)
    row = report.rows[0]
    assert row.target == "step"
    assert row.function is not None and row.function.scope == "function step"
    assert row.function.clock == "cpu" and row.function.samples >= 2
    assert row.function.speedup > 2  # twenty eager steps against one compiled call
    assert row.verdict is Verdict.ACCEPTED, row.reason


def test_a_change_inside_the_entry_times_the_entry_in_one_process(program, fast) -> None:
    """The entry, `main()`, is called again and again in one process, after a warm-up."""
    original = PROGRAM.replace("range(20)", "range(3)").replace("range(30)", "range(300)")
    path = program(original)
    rewritten = original.replace(
        "    for _ in range(300):\n        x = step(x)\n",
        "    fast_step = jax.jit(step)\n    for _ in range(300):\n        x = fast_step(x)\n",
    ).replace("import jax.numpy", "import jax\nimport jax.numpy")
    assert changed_region(original, rewritten) == "main"
    report = verify_rewrite(path, rewritten, rule="AO102", options=fast)
    row = report.rows[0]
    assert row.function is not None and row.function.scope == "function main"
    assert row.function.speedup > 2  # compiled once in the warm-up, outside the clock
    assert row.verdict is Verdict.ACCEPTED, row.reason


def test_a_module_level_change_falls_back_to_the_whole_program(program, fast) -> None:
    path = program(PROGRAM)
    report = verify_rewrite(path, PROGRAM.replace("SCALE = 2.0", "SCALE = 3.0"), options=fast)
    row = report.rows[0]
    assert row.function is None and row.program is not None
    assert any("only the whole program is timed" in note for note in row.notes)


NAMED_CARRY = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    x: jax.Array
    v: jax.Array


def _step(state, _):
    return State(state.x + 0.1 * state.v, state.v * 0.99), None


@jax.jit
def simulate(state):
    state, _ = jax.lax.scan(_step, state, None, length=50)
    return state


def main():
    state = State(jnp.zeros(1000), jnp.ones(1000))
    for _ in range(5):
        state = simulate(state)
    return state
"""


def test_a_replayed_argument_of_the_programs_own_class_is_the_rewrites_class(program, fast) -> None:
    """The rewrite is loaded as a module of its own: a captured `State` is rebuilt as its
    `State`, so a scan whose carry its own code builds gets the structure it expects (it
    crashed on replay, where a rewrite that does not touch `State` is equivalent)."""
    path = program(NAMED_CARRY)
    donated = NAMED_CARRY.replace(
        "@jax.jit\ndef simulate",
        '@functools.partial(jax.jit, donate_argnames=("state",))\ndef simulate',
    ).replace("from typing", "import functools\nfrom typing")
    report = verify_rewrite(path, donated, rule="AO201", options=fast)
    row = report.rows[0]
    assert row.target == "simulate"
    assert row.function is not None and row.function.samples >= 2, row.reason
    assert row.verdict is not Verdict.CRASHED, row.reason
