"""AO302's interval form: a host value read every k steps gets its device values just
before each read; the program returns the same numbers and prints the same text."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from tests.rules.helpers import assert_same, run_main, run_snippet

STEP = """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def train_step(params, batch):
    loss = jnp.mean((params - batch) ** 2)
    return params - 0.3 * (params - batch), loss

def batches(n):
    for i in range(n):
        yield jnp.sin(jnp.arange(4.0) + i)
"""
PROGRAMS = {
    "a running mean printed every 7 steps, reset after": """
def main(params):
    total = 0.0
    for step in range(30):
        params, loss = train_step(params, jnp.cos(params + step))
        total += loss.item()
        if step % 7 == 6:
            print(f"step {step}: mean loss {total / 7:.6f}")
            total = 0.0
    return params, total
""",
    "a window of the list printed every 5 steps": """
def main(params):
    losses = []
    params = params * 1.0
    for step, batch in enumerate(batches(23)):
        params, loss = train_step(params, batch)
        losses.append(float(loss))
        if step % 5 == 4:
            print(np.mean(losses[-5:]), len(losses))
    return params, losses
""",
    "a loop that breaks and continues between reads": """
def main(params):
    total = 0
    count = 0
    for step in range(100):
        params, loss = train_step(params, params[::-1])
        if step % 3 == 1:
            continue
        total += loss.item()
        count += 1
        if step % 10 == 0 or step == 99:
            print(f"Step={step} Loss={total / count}")
        if step == 44:
            break
    return params, total, count
""",
}


def _run(source: str) -> tuple[str, object]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        result = run_snippet(source + "result = main(jnp.linspace(-1.0, 1.0, 4))\n")
    return buffer.getvalue(), result


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_same_numbers_and_the_same_printed_text(name: str) -> None:
    source = STEP + PROGRAMS[name]
    fixed = optimize_source(source, settings=Settings(select=("AO302",)))
    [finding] = fixed.findings
    assert finding.fix is Applicability.SAFE, finding.message
    assert "_pending.clear()" in fixed.new_source
    (printed, before), (printed_after, after) = _run(source), _run(fixed.new_source)
    assert printed and printed == printed_after
    host_before = [v for v in before if not hasattr(v, "shape")]  # type: ignore[attr-defined]
    host_after = [v for v in after if not hasattr(v, "shape")]  # type: ignore[attr-defined]
    assert host_before == host_after  # the same floats, added in the same order
    assert_same(before, after)


MODULE_LEVEL = """
params = jnp.linspace(-1.0, 1.0, 4)
losses = []
for step in range(12):
    params, loss = train_step(params, jnp.cos(params))
    losses.append(float(loss))
    if step % 4 == 3:
        print(sum(losses[-4:]) / 4)
result = sum(losses), len(losses)
"""


def test_a_module_level_loop_is_rewritten_only_with_unsafe_fixes() -> None:
    source = STEP + MODULE_LEVEL
    assert optimize_source(source, settings=Settings(select=("AO302",))).new_source == source
    fixed = optimize_source(source, settings=Settings(select=("AO302",), unsafe_fixes=True))
    [finding] = fixed.findings
    assert finding.fix is Applicability.UNSAFE
    assert "leaves `losses`, which outlives the function, without its last values" in (
        finding.message
    )
    outputs = []
    for code in (source, fixed.new_source):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            outputs.append((buffer, run_snippet(code)))
    (before, kept), (after, kept_after) = outputs
    assert before.getvalue() == after.getvalue() and kept == kept_after


CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def test_the_corpus_program_prints_and_returns_the_same(tmp_path: Path) -> None:
    path = CORPUS / "interval_logging_train.py"
    fixed = optimize_source(path.read_text(), settings=Settings(select=("AO302",)))
    assert [f.fix for f in fixed.findings] == [Applicability.SAFE] * 2
    rewritten = tmp_path / "interval_logging_train_after.py"
    rewritten.write_text(fixed.new_source)
    outputs = []
    for source, name in ((path, "interval_before"), (rewritten, "interval_after")):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            outputs.append((buffer, run_main(source, name, {"STEPS": 200})))
    (before, kept), (after, kept_after) = outputs
    assert before.getvalue().count("\n") == 6 and before.getvalue() == after.getvalue()
    assert_same(kept, kept_after, rtol=0.0)
