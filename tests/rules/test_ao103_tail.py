"""AO103: a step taken from the device work that follows a block in the loop's body
(analysis/plans/tail_step.py): exact rewrite, same numbers, and the premises it needs."""

from __future__ import annotations

import pytest

from autoopt.api import check_source

from .helpers import assert_same, rewrite, run_snippet

BASE = """
import jax
import jax.numpy as jnp


def batches(seed, log):
    key = jax.random.key(seed)
    while True:
        key, sub = jax.random.split(key)
        log.append(seed)
        yield jax.random.normal(sub, (8, 3))


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w)


def run(steps):
    log = []
    w = jnp.ones(3)
    avg = jnp.ones(3)
    scale = jnp.asarray(0.5)
    train = batches(0, log)
    evals = batches(1, log)
    for step in range(steps):
        if step % 5 == 0:
            log.append(float(jnp.mean(next(evals) @ avg)))
        g = grad_fn(w, next(train))
        w = w - 0.1 * g * scale
        progress = min(step / steps, 1.0)
        if step % 4 == 0:
            scale = scale * (1.0 - progress)
        avg = 0.9 * avg + 0.1 * w
    return w, avg, log


result = run(12)
"""

STEP = """
@functools.partial(jax.jit, donate_argnames=("w",))
def _run_step(w, scale, train_next):
    g = grad_fn(w, train_next)
    w = w - 0.1 * g * scale
    return w
"""

LOOP = """
    for step in range(steps):
        if step % 5 == 0:
            log.append(float(jnp.mean(next(evals) @ avg)))
        train_next = next(train)
        w = _run_step(w, scale, train_next)
        progress = min(step / steps, 1.0)
        if step % 4 == 0:
            scale = scale * (1.0 - progress)
        avg = 0.9 * avg + 0.1 * w
"""


def test_the_device_work_after_a_block_becomes_one_step() -> None:
    """The run after the `if` block, less `progress` (host arithmetic), is the step;
    `next(train)` is called just before it; the trailing lines stay."""
    result = rewrite(BASE, ("AO103",))
    [finding] = result.findings
    assert finding.fix.value == "safe"
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation: compile its device "
        "work, from line 29, after `if step % 5 == 0:` (line 27), the loop calling "
        "`next(train)` just before it, as one jitted step, `_run_step`, donating `w`"
    )
    assert STEP in result.new_source
    assert LOOP in result.new_source
    assert result.new_source.startswith("\nimport functools\n")


def test_the_step_computes_what_the_loop_did_in_the_same_order() -> None:
    """`log` records each batch drawn, from either iterator, among the evaluations."""
    result = rewrite(BASE, ("AO103",))
    assert_same(run_snippet(BASE), run_snippet(result.new_source))


TWO_ITERATORS = BASE.replace(
    "        g = grad_fn(w, next(train))\n        w = w - 0.1 * g * scale\n",
    "        g = grad_fn(w, next(train))\n        h = grad_fn(w, next(evals))\n"
    "        w = w - 0.1 * g * scale - 0.01 * h\n        u = grad_fn(w, next(train))\n"
    "        w = w - 0.1 * u * scale\n",
)


def test_next_calls_are_made_in_the_order_the_lines_make_them() -> None:
    result = rewrite(TWO_ITERATORS, ("AO103",))
    assert [f.fix.value for f in result.findings] == ["safe"]
    calls = (
        "        train_next = next(train)\n        evals_next = next(evals)\n"
        "        train_next_2 = next(train)\n"
        "        w = _run_step(w, scale, train_next, evals_next, train_next_2)\n"
    )
    assert calls in result.new_source
    assert_same(run_snippet(TWO_ITERATORS), run_snippet(result.new_source))


_BLOCK = "            log.append(float(jnp.mean(next(evals) @ avg)))\n"
_G = "        g = grad_fn(w, next(train))\n"

NO_FIX = [
    (  # the block replaces the carry the step would read (and donate)
        BASE.replace(_BLOCK, _BLOCK + "            w = w * 0.5\n"),
        "`w`, which the step would read, is changed by line 29 before its lines, in the body",
    ),
    (  # the block rebinds a value the step reads
        BASE.replace(_BLOCK, _BLOCK + "            scale = scale * 0.5\n"),
        "`scale`, which the step would read, is changed by line 29 before its lines, in the body",
    ),
    (  # the iterator is read by the step otherwise: its order would change
        BASE.replace(_G, _G + "        w = w + jnp.mean(jnp.stack(list(zip(range(1), train))))\n"),
        "the step's lines read `train` other than by `next(train)`, whose order then matters",
    ),
    (  # drawn on some iterations only
        BASE.replace("next(train))", "next(train) if step > 2 else jnp.ones((8, 3)))"),
        "`next(train)` may not run every iteration, so the loop cannot call it first",
    ),
    (  # a print before the draw: moving the draw first would reorder them
        BASE.replace(_G, "        w = noisy(w)\n" + _G).replace(
            "def run(", "def noisy(w):\n    print('noisy')\n    return w * 1.0\n\n\ndef run("
        ),
        "it is not pure: it calls `noisy`, which prints",
    ),
    (  # a global the block rebinds, read by the step's callee: jit would freeze it
        BASE.replace(_BLOCK, _BLOCK + "            decay()\n")
        .replace("w - 0.1 * g * scale", "w - shrink(g)")
        .replace(
            "def run(",
            "SCALE = 0.5\n\n\ndef decay():\n    global SCALE\n    SCALE = SCALE * 0.5\n\n\n"
            "def shrink(g):\n    return g * SCALE\n\n\ndef run(",
        ),
        "it calls `shrink`, which reads `SCALE`, which the module changes (jit would freeze it)",
    ),
    (  # the draw may raise after the step's first line ran, and a `try` sees its names
        BASE.replace(_G, "        w = w * 0.9\n" + _G)
        .replace("    for step in range(steps):\n", "    try:\n     for step in range(steps):\n")
        .replace(
            "    return w, avg, log\n",
            "    except StopIteration:\n        pass\n    return w, avg, log\n",
        ),
        "`next(train)` may raise (an iterator that ends) where the step's lines before it "
        "have run, and the loop is inside a `try` or `with`, where what they bound is then read",
    ),
]


@pytest.mark.parametrize(("source", "premise"), NO_FIX)
def test_a_premise_that_fails_is_named_with_no_fix(source: str, premise: str) -> None:
    _, findings = check_source(source)
    [finding] = [f for f in findings if f.rule == "AO103"]
    assert finding.fix.value == "none"
    assert "after `if step % 5 == 0:`" in finding.message
    assert premise in finding.message


PER_ITEM = """
import jax.numpy as jnp


def run(xs):
    for step in range(3):
        if step % 2 == 0:
            print(step)
        a = jnp.sin(xs[step])
        b = jnp.cos(a)
        print(b)


run(jnp.ones((3, 2)))
"""


def test_device_work_after_a_block_that_carries_nothing_forms_no_step() -> None:
    _, findings = check_source(PER_ITEM)
    [finding] = [f for f in findings if f.rule == "AO103"]
    assert finding.fix.value == "none"
    assert finding.message.endswith(
        "not compiled as one step: its device work, from line 9, comes after "
        "`if step % 2 == 0:` (line 7), and those lines form no step (one carries names "
        "bound before the loop and runs two computing statements at least, before the "
        "trailing ones of host arithmetic)"
    )
