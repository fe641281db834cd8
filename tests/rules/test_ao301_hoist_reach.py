"""AO301 hoists a transfer before its loop only where the hoisted evaluation cannot fail
where the original never runs it (`analysis/plans/hoist_reach.py`): its operand is an
array, or it runs on the first iteration of a loop proven to run. Otherwise the fix is
unsafe and names the guard that may skip it."""

from __future__ import annotations

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

_HEAD = """import jax
import jax.numpy as jnp
import numpy as np


"""
_AFTER = "; before the loop `{}` may not be an array, so its transfer could fail there"


def _only(code: str):
    result = optimize_source(_HEAD + code, settings=Settings(select=("AO301",)))
    (finding,) = result.findings
    return finding


def _doubt(code: str) -> str:
    finding = _only(code)
    assert finding.fix is Applicability.UNSAFE
    return finding.message.split("; unsafe: ", 1)[1]


UNSAFE_CASES = {
    "guarded by `is not None`": (
        """
def evaluate(batches, weights=None):
    total = 0.0
    for logits in batches:
        if weights is not None:
            logits = logits * jnp.asarray(weights)
        total = total + jnp.sum(logits)
    return total
""",
        "the transfer of `weights` runs only where `weights is not None`",
    ),
    "in the `else:` of an `if`": (
        """
def f(xs, table, plain):
    out = 0.0
    for x in range(3):
        if plain:
            out = out + x
        else:
            out = out + jnp.asarray(table)[0]
    return out
""",
        "the transfer of `table` runs only where `plain` is false",
    ),
    "inside `try:`": (
        """
def rollout(xs, aux):
    total = 0.0
    for x in xs:
        try:
            bonus = jnp.asarray(aux).sum()
        except (TypeError, ValueError):
            bonus = 0.0
        total = total + x + bonus
    return total
""",
        "the transfer of `aux` runs inside the `try:` at line 10, whose handlers would no longer "
        "see what it raises",
    ),
    "a `while` loop that may run zero times": (
        """
def refine(x, table, tol):
    it = 0
    while jnp.abs(x).max() > tol and it < 5:
        x = x * jnp.asarray(table)[0]
        it += 1
    return x
""",
        "the `while` loop at line 9 may run zero times, and then the transfer of `table` "
        "never runs",
    ),
    "a resumed `range(start, n)`": (
        """
def train(w, start, n_epochs, weights):
    for epoch in range(start, n_epochs):
        w = w * jnp.asarray(weights)[epoch % 2]
    return w
""",
        "the loop at line 8 may run zero times (over `range(start, n_epochs)`), and then "
        "the transfer of `weights` never runs",
    ),
    "after an early `continue`": (
        """
def f(table, skip):
    out = 0.0
    for x in range(4):
        if x in skip:
            continue
        out = out + x * jnp.asarray(table)[0]
    return out
""",
        "an earlier `continue` at line 11 may skip the transfer of `table`",
    ),
    "after a `yield`": (
        """
def scaled(xs, table):
    for i in range(3):
        yield xs[i]
        print(i)
        yield xs[i] * jnp.asarray(table)[0]
""",
        "an earlier `yield` at line 9 may skip the transfer of `table`",
    ),
    "the right of `and`": (
        """
FLAGS = (True, False, True)


def f(table):
    total = jnp.zeros(())
    for i in range(3):
        total = jnp.add(total, FLAGS[i] and jnp.asarray(table)[i])
        print(total)
    return total
""",
        "the transfer of `table` runs only where `FLAGS[i]` is true",
    ),
    "one side of a conditional expression": (
        """
USE = True


def f(table):
    total = jnp.zeros(())
    for i in range(3):
        total = jnp.add(total, jnp.asarray(table)[i] if USE else i)
        print(total)
    return total
""",
        "the transfer of `table` runs only where `USE`",
    ),
    "a comprehension": (
        """
def f(table, groups):
    total = 0.0
    for i in range(3):
        total = total + sum([jnp.asarray(table)[g] for g in groups])
        print(total)
    return total
""",
        "the transfer of `table` runs inside a comprehension, which may never run it",
    ),
    "a NumPy array with a dtype read from a parameter": (
        """
def f(dtype, n):
    table = np.ones(3)
    total = 0.0
    for i in range(n):
        total = total + jnp.asarray(table, dtype=dtype)
        print(total)
    return total
""",
        "the loop at line 10 may run zero times (over `range(n)`), and then the transfer of "
        "`table` never runs",
    ),
}


@pytest.mark.parametrize("name", sorted(UNSAFE_CASES))
def test_a_transfer_the_original_may_not_run_is_hoisted_only_as_unsafe(name: str) -> None:
    code, reason = UNSAFE_CASES[name]
    operand = "aux" if "aux" in reason else "weights" if "weights" in reason else "table"
    assert _doubt(code) == reason + _AFTER.format(operand)


def test_the_guarded_transfer_is_named_in_the_full_message() -> None:
    code = UNSAFE_CASES["guarded by `is not None`"][0]
    assert _only(code).message == (
        "`jnp.asarray(weights)` copies the same data to the device on every iteration of the "
        "loop at line 9: transfer it once before the loop (`weights_dev = "
        "jnp.asarray(weights)`); unsafe: the transfer of `weights` runs only where `weights "
        "is not None`; before the loop `weights` may not be an array, so its transfer could "
        "fail there"
    )


NO_FINDING = {
    "in the loop's `else:`": """
def f(xs, table):
    out = 0.0
    for x in xs:
        out = out + x
    else:
        out = out * jnp.asarray(table)[0]
    return out
""",
    "a dtype that changes in the loop": """
def f(table, dtypes):
    out = []
    for d in dtypes:
        out.append(jnp.asarray(table, dtype=d))
    return out
""",
}


@pytest.mark.parametrize("name", sorted(NO_FINDING))
def test_no_hoist(name: str) -> None:
    result = optimize_source(_HEAD + NO_FINDING[name], settings=Settings(select=("AO301",)))
    assert result.findings == []


SAFE_CASES = {
    "a NumPy array under a guard": (
        """
def evaluate(batches, use):
    weights = np.array([1.0, 2.0, 0.5])
    total = 0.0
    for logits in batches:
        if use:
            logits = logits * jnp.asarray(weights)
        total = total + jnp.sum(logits)
    return total
""",
        "weights_dev = jax.device_put(weights)",
    ),
    "a NumPy array with a constant dtype, in a `try:`": (
        """
def f(xs):
    table = np.ones(3)
    total = 0.0
    for x in xs:
        try:
            total = total + jnp.asarray(table, dtype=jnp.float16) * x
        except ValueError:
            total = total + x
        print(total)
    return total
""",
        "table_dev = jnp.asarray(table, dtype=jnp.float16)",
    ),
    "an unconditional transfer in `range(3)`": (
        """
def f(table):
    total = 0.0
    for i in range(3):
        total = total + jnp.asarray(table)[i]
        print(total)
    return total
""",
        "table_dev = jnp.asarray(table)",
    ),
    "a non-empty literal and `while True`": (
        """
def f(table, steps):
    total = 0.0
    for scale in (1.0, 2.0):
        while True:
            total = total + jnp.asarray(table) * scale
            print(total)
            if scale > steps:
                break
    return total
""",
        "table_dev = jnp.asarray(table)",
    ),
}


@pytest.mark.parametrize("name", sorted(SAFE_CASES))
def test_a_transfer_that_cannot_fail_or_always_runs_is_hoisted_safely(name: str) -> None:
    code, hoisted = SAFE_CASES[name]
    result = optimize_source(_HEAD + code, settings=Settings(select=("AO301",)))
    (finding,) = result.findings
    assert finding.fix is Applicability.SAFE
    assert f"    {hoisted}\n" in result.new_source
