"""AO302's scan form: when the whole loop becomes one jitted `lax.scan`, and when not."""

from __future__ import annotations

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.rules.ao302_host_sync_in_loop import HostSyncInLoop
from tests.rules.helpers import assert_same, run_snippet

BASE = """\
import jax
import jax.numpy as jnp
import numpy as np

STEPS = 6


@jax.jit
def update(w, x, y):
    grad = jax.grad(lambda w: jnp.sum((w * x - y) ** 2))(w)
    return w - 0.1 * grad, jnp.sum(w * x)


def main(data, targets):
    xs, ys = jnp.asarray(data), jnp.asarray(targets)
    w = jnp.zeros(xs.shape[-1])
    losses = []
    for i in range(STEPS):
        w, loss = update(w, xs[i], ys[i])
        losses.append(float(loss))
    return w, losses
"""
COLLECT = "        losses.append(float(loss))\n"
CONVERT = "    losses = [float(value) for value in jax.device_get(losses)]\n"

#: Each stays a list-form rewrite: the loop does not fit one scan.
NOT_SCANNED = {
    "a carry whose shape may change (`x * y` may broadcast `w` to a larger shape)": (
        "    return w - 0.1 * grad, jnp.sum(w * x)\n",
        "    return w - 0.1 * x * y, jnp.sum(w * x)\n",
    ),
    "python control flow in the body": (
        COLLECT,
        "        if i % 2 == 0:\n            w = w * 0.5\n" + COLLECT,
    ),
    "the index is used as a value": ("update(w, xs[i], ys[i])", "update(w, xs[i], i)"),
    "the callee is not jitted": ("@jax.jit\ndef update", "def update"),
    "a trip count not known to be positive (scan traces its body even for none)": (
        "range(STEPS)",
        "range(xs.shape[0])",
    ),
    "a count from a parameter": ("range(STEPS)", "range(len(targets) - 10)"),
    "a carry rebound to a Python value": (
        COLLECT,
        COLLECT + "        w = 2 * 3\n",
    ),
    "a name of the last step read after the loop": (
        "    return w, losses\n",
        "    return w, losses, loss\n",
    ),
    "a callee with static arguments": (
        "@jax.jit\ndef update",
        '@jax.jit(static_argnames=("y",))\ndef update',
    ),
    "rows of a value not proven an array": (
        "    xs, ys = jnp.asarray(data), jnp.asarray(targets)\n",
        "    xs, ys = list(data), list(targets)\n",
    ),
    "rows of a NumPy array (NumPy raises out of range, a traced index clamps)": (
        "    xs, ys = jnp.asarray(data), jnp.asarray(targets)\n",
        "    xs, ys = np.asarray(data), jnp.asarray(targets)\n",
    ),
    "host RNG in the body (it would be drawn once, at trace time)": (
        COLLECT,
        "        w = w + np.random.normal(size=3)\n" + COLLECT,
    ),
    "the scanned array changes in the loop": (
        COLLECT,
        COLLECT + "        xs = xs * 2\n",
    ),
}


def _ao302(code: str) -> str:
    return optimize_source(code, settings=Settings(select=("AO302",))).new_source


@pytest.mark.parametrize("case", NOT_SCANNED, ids=str)
def test_loop_that_does_not_fit_gets_the_list_form(case: str) -> None:
    old, new = NOT_SCANNED[case]
    source = BASE.replace(old, new)
    assert source != BASE
    expected = source.replace(COLLECT, "        losses.append(loss)\n").replace(
        "    return w, losses", CONVERT + "    return w, losses"
    )
    assert _ao302(source) == expected


def test_base_case_is_scanned() -> None:
    rewritten = _ao302(BASE)
    assert "    return jax.lax.scan(body, w, steps)\n" in rewritten
    assert "    w, losses = main_loop(w, xs, ys, jnp.arange(STEPS))\n" in rewritten


def _examples() -> list[str]:
    return [case.code for case in HostSyncInLoop.INVALID if case.message == "lax.scan"]


CALLS = {
    0: "result = main(np.arange(1200.0).reshape(100, 4, 3) / 1e3, np.ones((100, 4)))",
    1: "result = main()",
    2: "result = main(jnp.linspace(0.0, 1.0, 3))",
    3: "result = main()",  # two lists, one filled every 10th step
}


@pytest.mark.parametrize("index", sorted(CALLS))
def test_scanned_loop_computes_the_same(index: int) -> None:
    source = _examples()[index] + CALLS[index] + "\n"
    rewritten = _ao302(source)
    assert "lax.scan" in rewritten
    assert_same(run_snippet(source), run_snippet(rewritten), rtol=1e-5)


def test_rows_out_of_range_clamp_as_in_the_loop() -> None:
    source = BASE + "result = main(np.arange(12.0).reshape(4, 3), np.ones((4,)))\n"
    rewritten = _ao302(source)
    assert "lax.scan" in rewritten
    assert_same(run_snippet(source), run_snippet(rewritten), rtol=1e-6)


def test_a_conversion_used_otherwise_keeps_the_loop() -> None:
    """One list collected, another value printed: the loop cannot become a scan."""
    source = BASE.replace(COLLECT, COLLECT + "        print(loss.item())\n")
    assert "lax.scan" not in _ao302(source)


def test_guard_on_anything_but_the_index_keeps_the_loop() -> None:
    guarded = "        if loss > 0:\n    " + COLLECT
    source = BASE.replace(COLLECT, guarded)
    assert "lax.scan" not in _ao302(source)


#: The hostile control program y04: AO201 donates `w` to `step`, AO302 scans the loop.
DONATED_CARRY = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    loss = jnp.sum(w ** 2)
    return w * 0.8, loss


def main():
    w = jnp.array([1.0, 0.5])
    losses = []
    for _ in range(10):
        w, loss = step(w)
        losses.append(float(loss))
    return w, losses

result = main()
"""


def test_every_rule_reaches_the_fixed_point_in_one_run() -> None:
    """The scan helper donates the carry the donation analysis proves harmless in the
    rewritten program, so a second run (AO201 on the helper) changes nothing."""
    first = optimize_source(DONATED_CARRY).new_source
    assert '@functools.partial(jax.jit, donate_argnames=("w",))\ndef main_loop' in first
    assert optimize_source(first).new_source == first
    assert_same(run_snippet(DONATED_CARRY), run_snippet(first))
