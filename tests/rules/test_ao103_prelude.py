"""AO103: a step after the body's prelude (analysis/plans/prelude.py): which lines the loop
computes before the step, which arithmetic on them it computes for the step, and that the
rewrite computes the same numbers."""

from __future__ import annotations

import pytest

from .helpers import assert_same, rewrite, run_snippet

BASE = """
import jax.numpy as jnp


def run(x, n):
    for epoch in range(n):
        x = jnp.sin(x) * 0.5
        progress = epoch / 4
        y = x * (1.0 - progress) + x * TERM
        x = jnp.tanh(y) + x * progress
        print(progress)
    return x, progress


result = run(jnp.ones(3), 4)
"""


def _step_call(source: str) -> str:
    """The loop's lines from `progress = ...` to the step's call in the rewrite."""
    new = rewrite(source, ("AO103",)).new_source
    start = new.index("        progress =")
    return new[start : new.index("\n", new.index("_run_step(", start)) + 1]


def test_the_loop_computes_the_prelude_and_its_arithmetic_first() -> None:
    """`progress` moves before `x = jnp.sin(x) * 0.5` (it raises nothing: `epoch` bounded,
    a nonzero literal divisor); `1.0 - progress` and `progress * 0.25` are computed by the
    loop, `progress` itself passed where the step multiplies an array by it."""
    source = BASE.replace("TERM", "(progress * 0.25)")
    assert _step_call(source) == (
        "        progress = epoch / 4\n"
        "        progress_value = 1.0 - progress\n"
        "        progress_value_2 = progress * 0.25\n"
        "        x = _run_step(x, progress, progress_value, progress_value_2)\n"
    )
    assert_same(run_snippet(source), run_snippet(rewrite(source, ("AO103",)).new_source))


@pytest.mark.parametrize(
    ("term", "passed"),
    [
        ("progress ** 2", "progress, progress_value"),  # `**` may raise or turn complex
        ("(progress / x.shape[0])", "progress, progress_value"),  # not a literal divisor
        ("(progress * 9007199254740993)", "progress, progress_value"),  # beyond 2**53
    ],
)
def test_arithmetic_that_may_raise_or_is_not_a_float_stays_in_the_step(
    term: str, passed: str
) -> None:
    """Only `1.0 - progress` is computed by the loop; the term is the step's own."""
    source = BASE.replace("TERM", term)
    assert _step_call(source).endswith(f"        x = _run_step(x, {passed})\n")


@pytest.mark.parametrize(
    "prelude",
    [
        "progress = epoch / n",  # `n`: a parameter of unproven bounds, may be zero
        "progress = epoch / 4 ** 1",  # `**` is not the prelude's arithmetic
        "progress = float(epoch) / 4 + len([])",  # `len` is no arithmetic builtin
        "progress = epoch // 4",  # an int, not a float
    ],
)
def test_a_prelude_line_that_is_not_proven_leaves_the_loop_eager(prelude: str) -> None:
    """No prelude: the step would return `progress`, a Python number, so no step."""
    source = BASE.replace("TERM", "0.5").replace("progress = epoch / 4", prelude)
    assert [f.rule for f in rewrite(source, ("AO103",)).findings] == []
