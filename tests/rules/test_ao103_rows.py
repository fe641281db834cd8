"""AO103's whole-loop scan of a step that reads the loop variable only to pick rows of
JAX arrays (`xs[i]`): the scan runs over `jnp.arange` of the range, so each step picks
the row the loop picked (a JAX array clamps an index out of range eagerly and traced
alike). Any other use of the variable, a NumPy array's row, or a loop of module code
keeps the old findings. A name of another function (`loss` inside `sgd`) is not the
loop's: it does not stop the scan."""

from __future__ import annotations

import jax
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings

from .helpers import assert_same

ROWS = """
import jax.numpy as jnp
import numpy as np

N_STEPS = 30


def sgd(w, x, y):
    err = x @ w - y
    loss = jnp.mean(err**2)
    return w - 0.1 * x.T @ err / x.shape[0], loss


def main():
    rng = np.random.default_rng(0)
    xs = jnp.asarray(rng.normal(size=(N_STEPS, 8, 3)), dtype=jnp.float32)
    ys = jnp.asarray(rng.normal(size=(N_STEPS, 8)), dtype=jnp.float32)
    w = jnp.zeros(3, jnp.float32)
    losses = []
    for i in range(N_STEPS):
        w, loss = sgd(w, xs[i], ys[i])
        losses.append(loss)
    return w, jnp.stack(losses)
"""

_FINDINGS = [
    "AO101 safe `sgd` is called in a loop without `jax.jit`: add `@jax.jit`",
    "AO201 safe `w` is dead after every call of `sgd` and replaced by its output: donate it "
    "(`donate_argnames`) so XLA reuses the buffer",
    "AO103 safe this loop's body runs eagerly, one dispatch per operation: run the whole "
    "loop as one jitted `lax.scan` when the carry keeps its types (checked when the loop "
    "starts: `_main_loop` runs `_main_scan`, else `_main_step` once per iteration), "
    "donating `w`; statically, cannot prove `w` keeps its shape and dtype across iterations",
]


def _rewrite(source: str) -> tuple[str, list[str]]:
    result = optimize_source(source, settings=Settings())
    return result.new_source, [f"{f.rule} {f.fix.value} {f.message}" for f in result.findings]


def _run(source: str) -> tuple[object, list[dict[str, object]]]:
    """`main()` of `source`, and the keyword arguments of each call of `_main_scan`."""
    namespace: dict[str, object] = {"__name__": "rows_snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    calls: list[dict[str, object]] = []
    if "_main_scan" in namespace:
        scan = namespace["_main_scan"]
        namespace["_main_scan"] = lambda *a, **kw: calls.append(kw) or scan(*a, **kw)  # type: ignore[operator]
    return jax.block_until_ready(namespace["main"]()), calls  # type: ignore[operator]


def test_a_loop_picking_rows_runs_as_one_scan_over_the_range() -> None:
    new, findings = _rewrite(ROWS)
    assert findings == _FINDINGS
    assert "        return jax.lax.scan(body, w, xs=jnp.arange(N_STEPS))\n" in new
    assert "    first = jax.eval_shape(_main_step, 0, w, xs, ys)[1]\n" in new
    before, _ = _run(ROWS)
    after, calls = _run(new)
    assert calls == [{}]
    assert_same(before, after)
    assert _rewrite(new)[0] == new


def test_a_weak_start_over_a_shifted_range_runs_its_first_row_apart() -> None:
    """`range(2, N)` from a weakly typed carry: the first step picks row 2 on its own,
    the scan the rows from 3 on."""
    source = ROWS.replace("range(N_STEPS)", "range(2, N_STEPS)").replace(
        "w = jnp.zeros(3, jnp.float32)", "w = jnp.full(3, 0.25)"
    )
    new, _ = _rewrite(source)
    assert "    # the first step, on the starting types\n    w, first = body(w, 2)\n" in new
    assert "    w, rest = jax.lax.scan(body, w, xs=jnp.arange(3, N_STEPS))\n" in new
    before, _ = _run(source)
    after, calls = _run(new)
    assert calls == [{"peel": True}]
    assert_same(before, after)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the index enters arithmetic: a traced index is not a Python int there
        ("sgd(w, xs[i], ys[i])", "sgd(w, xs[i] * i, ys[i])"),
        # a comprehension's own `i` picks rows; the loop's enters arithmetic
        ("sgd(w, xs[i], ys[i])", "sgd(w, xs[i] * i, jnp.stack([ys[i] for i in range(8)])[0])"),
        # rows of a NumPy array: traced, an index out of range would clamp, not raise
        (
            "xs = jnp.asarray(rng.normal(size=(N_STEPS, 8, 3)), dtype=jnp.float32)",
            "xs = rng.normal(size=(N_STEPS, 8, 3)).astype(np.float32)",
        ),
        # the loop variable is read after the loop (a scan binds none)
        ("return w, jnp.stack(losses)", "return w, jnp.stack(losses), i"),
        # a function nested in `main` reads the last loss after the loop
        (
            "    return w, jnp.stack(losses)",
            "    def last():\n        return loss\n\n    return w, jnp.stack(losses), last()",
        ),
    ],
)
def test_loops_that_get_no_scan(old: str, new: str) -> None:
    source = ROWS.replace(old, new)
    assert source != ROWS
    rewritten, findings = _rewrite(source)
    assert not [f for f in findings if f.startswith("AO103")]
    assert "lax.scan" not in rewritten
    assert_same(_run(source)[0], _run(rewritten)[0])
