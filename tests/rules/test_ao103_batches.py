"""AO103 on a loop over batch indices of a dataset on the device (issue 26, "the
device-resident dataset"): the batches `x[i * B : (i + 1) * B]` are taken by the traced
index with `lax.dynamic_slice_in_dim`, and the whole epoch runs as one scan, computing
the same numbers. Where a batch may run past the data the loop gets no fix, and the
form the rule declines would really change the results."""

from __future__ import annotations

import re

import jax
import numpy as np
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings

from .helpers import assert_same

EPOCHS = """
import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6


def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    return w - 0.1 * grad, loss


def main():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(N_SAMPLES, 3)).astype(np.float32)
    y = rng.normal(size=(N_SAMPLES,)).astype(np.float32)
    w = jnp.zeros(3)
    epoch_loss = []
    for _epoch in range(3):
        losses = []
        for i in range(N_BATCHES):
            xb = jnp.asarray(x[i * BATCH : (i + 1) * BATCH])
            yb = jnp.asarray(y[i * BATCH : (i + 1) * BATCH])
            w, loss = sgd_step(w, xb, yb)
            losses.append(loss)
        epoch_loss.append(jnp.mean(jnp.stack(losses)))
    return w, jnp.stack(epoch_loss)
"""


def _run(source: str) -> object:
    namespace: dict[str, object] = {"__name__": "batches_snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    return jax.block_until_ready(namespace["main"]())  # type: ignore[operator]


def _rules(source: str) -> set[str]:
    return {f.rule for f in optimize_source(source, settings=Settings()).applied}


def test_an_epoch_of_batches_runs_as_one_scan_with_the_same_numbers() -> None:
    """AO301 puts the dataset on the device (first pass); AO103 then runs the epoch as
    one scan taking each batch by the traced index (second pass)."""
    new = optimize_source(EPOCHS, settings=Settings()).new_source
    assert _rules(EPOCHS) == {"AO103", "AO201", "AO301"}
    assert "    x_dev = jnp.asarray(x)\n" in new
    assert "xb = jax.lax.dynamic_slice_in_dim(x_dev, i * BATCH, BATCH)" in new
    assert "jax.lax.scan(body, w, xs=jnp.arange(N_BATCHES))" in new
    assert "for i in range(N_BATCHES)" not in new.split("def main")[1]
    before, after = _run(EPOCHS), _run(new)
    assert_same(before, after, rtol=0.0)
    assert optimize_source(new, settings=Settings()).new_source == new


def _dynamic(source: str) -> str:
    """The form AO103 declines: every `x[lo : hi]` of the step as a dynamic slice."""
    return re.sub(
        r"(\w+)\[(\(i - 1\) \* BATCH|i \* BATCH) : [^\]]+\]",
        r"jax.lax.dynamic_slice_in_dim(jnp.asarray(\1), \2, BATCH)",
        source,
    )


@pytest.mark.parametrize(
    ("old", "new", "premise"),
    [
        (
            "N_SAMPLES = 48",
            "N_SAMPLES = 44",
            "`x_dev[i * BATCH : (i + 1) * BATCH]` runs past the 44 rows of `x_dev` at `i = 5`",
        ),
        (
            "[i * BATCH : (i + 1) * BATCH]",
            "[(i - 1) * BATCH : i * BATCH]",
            "starts before the first row of `x_dev` at `i = 0`",
        ),
    ],
)
def test_batches_past_the_data_get_no_fix_and_the_declined_form_breaks(
    old: str, new: str, premise: str
) -> None:
    source = EPOCHS.replace(old, new)
    result = optimize_source(source, settings=Settings(unsafe_fixes=True))
    assert "AO103" not in {f.rule for f in result.applied}
    fixed = result.new_source
    (finding,) = [f for f in optimize_source(fixed).findings if f.rule == "AO103"]
    assert finding.fix.value == "none" and premise in finding.message
    before = _run(source)
    assert_same(before, _run(fixed), rtol=0.0)
    declined = _dynamic(source)
    assert "dynamic_slice_in_dim" in declined
    w_before, w_declined = (np.asarray(r[0]) for r in (before, _run(declined)))  # type: ignore[index]
    assert not np.allclose(w_before, w_declined, equal_nan=True)
