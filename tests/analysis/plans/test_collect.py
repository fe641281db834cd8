"""Can a loop's host conversions stay on the device until it ends (AO302's list form)?"""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.collect import (
    PRINTED,
    collect_plan,
    collector,
    device_syncs,
    find_sync,
    host_use,
    loop_scan,
)
from autoopt.analysis.values.placement import Placement

from ..helpers import HEADER, context, expr, stmt

BASE = """
@jax.jit
def step(x):
    return x * 2, x.sum()

def main():
    x = jnp.zeros(3)
    losses = []
    for t in range(3):
        x, loss = step(x)
        losses.append(float(loss))
    return x, losses
"""
LINE = "losses.append(float(loss))"


def edit(old: str, new: str, code: str = BASE) -> str:
    assert old in code
    return code.replace(old, new)


@pytest.mark.parametrize(
    ("code", "kind", "value"),
    [
        ("float(x)", "float", "x"),
        ("x.item()", "item", "x"),
        ("x.tolist()", "tolist", "x"),
        ("np.asarray(x, np.float32)", "numpy.asarray", "x"),
        ("np.array(x)", "numpy.array", "x"),
        ("jax.device_get(x)", "jax.device_get", "x"),
        ("float(x, y)", None, None),  # not one value
        ("float(*xs)", None, None),
        ("np.asarray(a=x)", None, None),
        ("jnp.asarray(x)", None, None),  # stays on the device
        ("x.item(0)", None, None),
    ],
)
def test_find_sync(code: str, kind: str | None, value: str | None) -> None:
    ctx = context("", HEADER)
    sync = find_sync(ctx, expr(code))  # type: ignore[arg-type]
    found = (sync.kind, ctx.code(sync.value)) if sync else (None, None)
    assert found == (kind, value)


@pytest.mark.parametrize(
    ("line", "collected"),
    [
        (LINE, ("append", "losses")),
        ("total += float(loss)", ("sum", "total")),
        ("total += loss.tolist()", None),  # a sum of scalars only
        ("losses.append(float(loss) * 2)", None),
        ("y = float(loss)", None),
    ],
)
def test_collector(line: str, collected: tuple[str, str] | None) -> None:
    ctx = context(edit(LINE, line), HEADER)
    collecting = stmt(ctx, line)
    [sync] = device_syncs(ctx, Placement(ctx), collecting)
    assert collector(collecting, sync) == collected


def problem(code: str, line: str = LINE) -> str | None:
    ctx = context(code, HEADER)
    collecting = stmt(ctx, line)
    [sync] = device_syncs(ctx, Placement(ctx), collecting)
    plan = collect_plan(ctx, collecting, sync)
    assert plan is not None
    return plan.problem()


SUM = edit("losses = []", "total = 0.0", edit(LINE, "total += float(loss)"))
NOT_EMPTY = "`losses` is not an empty list set just before the loop"
#: The list filled before the loop, the loop under a `try` (or `with`) that may go on
#: after an exception, reading the list without the values collected so far.
AROUND = """
@jax.jit
def step(x):
    return x * 2, x.sum()

def main():
    x = jnp.zeros(3)
    losses = []
    losses.append(0.0)
    HEAD
        for t in range(3):
            x, loss = step(x)
            losses.append(float(loss))
    TAIL
    return x, losses
"""
TRY = AROUND.replace("HEAD", "try:").replace("TAIL", "except KeyboardInterrupt:\n        pass")
WITH = AROUND.replace("HEAD", "with ctx:").replace("TAIL", "")
FILLED = edit("    losses = []\n", "    losses = []\n    losses.append(0.0)\n")
GLOBAL = edit("    x = jnp.zeros(3)\n", "    global losses\n    x = jnp.zeros(3)\n", FILLED)
#: `x`, fed back to the jitted `step`, is not proven arrays (a jit's output), so the body
#: may see its aux data as the caller's objects and `loss`, unpacked beside it, may hold
#: them (facts/jit_arguments.py, tests/hazards h1648): that premise now fails first.
DONATES = (
    "`loss` may hold the buffers of `x`, which a call in the loop replaces and could donate, "
    "so keeping it on the device is not proven safe"
)
CONTROL = "the host value is used for control flow in the loop, so the sync must stay"


@pytest.mark.parametrize(
    ("code", "line", "expected"),
    [
        (BASE, LINE, None),
        (SUM, "total += float(loss)", None),
        (
            edit("losses = []", "losses = [0.0]"),
            LINE,
            "`losses` is not an empty list set just before the loop",
        ),
        (
            edit("total = 0.0", "total = None", SUM),
            "total += float(loss)",
            "`total` is not a number set just before the loop",
        ),
        (
            edit(LINE, f"{LINE}\n        print(losses)"),
            LINE,
            "`losses` is also used inside the loop",
        ),
        (
            edit(LINE, f"{LINE}\n        if t > 1:\n            return x"),
            LINE,
            "the loop can `return` or `yield` before the values are converted",
        ),
        (edit(LINE, f"{LINE}\n        loss = step(loss)[1]"), LINE, DONATES),
        # not empty when the loop starts: the values are added after it (`extends`)
        (FILLED, LINE, None),
        (edit("    losses = []\n", "    losses = []\n    history = losses\n"), LINE, NOT_EMPTY),
        (edit("    losses = []\n", "    losses = list(x)\n"), LINE, NOT_EMPTY),
        (edit("def main():", "def main(losses):", edit("    losses = []\n", "")), LINE, NOT_EMPTY),
        (GLOBAL, LINE, NOT_EMPTY),
        (TRY, LINE, NOT_EMPTY),
        (WITH, LINE, NOT_EMPTY),
    ],
)
def test_each_problem_says_why(code: str, line: str, expected: str | None) -> None:
    assert problem(code, line) == expected


@pytest.mark.parametrize(
    ("line", "use"),
    [
        ("print(float(loss))", PRINTED),
        ("if float(loss) < 0.1:\n            break", CONTROL),
        ("y = float(loss)\n        if y < 0.1:\n            break", CONTROL),
        ("y = float(loss)", "the host value is used inside the loop"),
        (
            "y = jax.device_get(loss)\n        ys.append(y * 2)",
            "the host value is used inside the loop: line 14 reads it (`ys.append(y * 2)`)",
        ),
        ("if t:\n            print(float(loss))", None),  # not every step: not worth a report
    ],
)
def test_host_use(line: str, use: str | None) -> None:
    ctx = context(edit(LINE, line), HEADER)
    places = Placement(ctx)
    [(converting, sync)] = [(s, y) for s in ctx.graph.stmts for y in device_syncs(ctx, places, s)]
    assert host_use(ctx, converting, sync) == use


@pytest.mark.parametrize(
    ("code", "scans"),
    [
        (BASE, True),
        (edit(LINE, "losses.append(loss.tolist())"), False),  # arrays would stack every step
        (edit(LINE, "losses.append(jax.device_get(loss))"), False),
        (edit("losses = []", "total = 0.0", edit(LINE, "total += float(loss)")), False),
        (edit("    x = jnp.zeros(3)\n", ""), False),  # `x` is not known to be an array
    ],
)
def test_loop_scan(code: str, scans: bool) -> None:
    ctx = context(code, HEADER)
    found = loop_scan(ctx, ctx.graph.loops[0], Placement(ctx))
    assert (found is not None) == scans
    if found is not None:
        scan, [plan] = found
        assert (plan.name, [c.name for c in scan.collects]) == ("losses", ["losses"])


STATE = """
@jax.jit
def step(state):
    return (state[0] * 2, state[0].sum())

def main():
    state = (jnp.zeros(3), jnp.zeros(()))
    losses = []
    for t in range(3):
        state = step(state)
        READ
        losses.append(float(loss))
    return state, losses
"""


@pytest.mark.parametrize(
    ("read", "expected"),
    [
        ("w, loss = state", "`loss` may hold the buffers of `state`"),
        ("loss = state[1]", "`loss` may hold the buffers of `state`"),
        ("loss = jnp.exp(state[1])", None),  # a new buffer
    ],
)
def test_a_kept_value_shares_no_buffer_with_a_value_a_call_replaces(
    read: str, expected: str | None
) -> None:
    found = problem(STATE.replace("READ", read))
    tail = ", which a call in the loop replaces and could donate, so keeping it on the device is"
    assert found == (None if expected is None else f"{expected}{tail} not proven safe")
