"""AO302's unsafe fix for a print every step: the same text, printed after the loop."""

from __future__ import annotations

import contextlib
import io

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from tests.rules.helpers import run_snippet

PROGRAMS = {
    "f-string, index, constant, two conversions": """
import jax.numpy as jnp

SCALE = 2

def main(x):
    for t in range(6):
        x = jnp.tanh(x) * 1.5
        print(f"step {t}/{SCALE}: {x.mean().item():.4f} max {float(x.max())}", flush=True)
    return x
""",
    "arrays, keyword arguments": """
import numpy as np
import jax.numpy as jnp

def main(x):
    for t in range(4):
        x = jnp.cos(x)
        print("x =", np.asarray(x), t, sep=" | ", end=";\\n")
    return x
""",
    "a loop that breaks": """
import jax.numpy as jnp

def main(x):
    for t in range(100):
        x = jnp.sin(x) * 0.5
        print(t, x.sum().item())
        if t == 3:
            break
    return x
""",
}


def _stdout(source: str) -> tuple[str, object]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        result = run_snippet(source + "result = main(jnp.linspace(-1.0, 1.0, 5))\n")
    return buffer.getvalue(), result


@pytest.mark.parametrize("name", PROGRAMS)
def test_replayed_lines_are_the_same_text(name: str) -> None:
    source = PROGRAMS[name]
    fixed = optimize_source(source, settings=Settings(select=("AO302",), unsafe_fixes=True))
    [finding] = fixed.findings
    assert finding.fix is Applicability.UNSAFE
    assert "jax.device_get(printed)" in fixed.new_source
    before, after = _stdout(source), _stdout(fixed.new_source)
    assert before[0] and before[0] == after[0]
    assert (before[1] == after[1]).all()


def test_the_print_stays_without_unsafe_fixes() -> None:
    source = PROGRAMS["a loop that breaks"]
    assert optimize_source(source, settings=Settings(select=("AO302",))).new_source == source
