"""AO302's fed form: a host copy (`x = jax.device_get(x)`, `loss = float(loss)`) only fed
to lists read at an interval stays on the device; the program prints and returns the
same; each must-not case stays without a fix, naming its premise."""

from __future__ import annotations

import contextlib
import io

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from tests.rules.helpers import assert_same, run_snippet

STEP = """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def train_step(w, x):
    loss = jnp.mean((w * x - 1.0) ** 2)
    return w - 0.1 * x, {"loss": loss, "z": w * x, "vq": {"perplexity": jnp.sum(w)}}

@jax.jit
def loss_step(w, x):
    return w - 0.1 * x, jnp.mean((w * x - 1.0) ** 2)
"""
KEYED = """
def main(w):
    losses = []
    perplexities = []
    for step in range(1, 11):
        w, results = train_step(w, jnp.cos(w + step))
        results = jax.device_get(results)
        losses.append(results["loss"])
        perplexities.append(results["vq"]["perplexity"])
        if step % 3 == 0:
            print("%f %.3f" % (np.mean(losses[-3:]), np.mean(perplexities[-3:])))
    return w, losses, perplexities
"""
BARE = """
def main(w):
    losses = []
    for step in range(10):
        w, loss = loss_step(w, jnp.sin(w + step))
        loss = float(loss)
        losses.append(loss)
        if step % 4 == 3:
            print(f"{np.mean(losses[-4:]):.6f}")
    return w, losses
"""
BARE_FIXED = """
def main(w):
    losses = []
    losses_pending = []
    for step in range(10):
        w, loss = loss_step(w, jnp.sin(w + step))
        losses_pending.append(loss)
        if step % 4 == 3:
            losses.extend(float(value) for value in jax.device_get(losses_pending))
            losses_pending.clear()
            print(f"{np.mean(losses[-4:]):.6f}")
    losses.extend(float(value) for value in jax.device_get(losses_pending))
    return w, losses
"""


def _run(source: str) -> tuple[str, object]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        result = run_snippet(source + "result = main(jnp.linspace(-1.0, 1.0, 4))\n")
    return buffer.getvalue(), result


def _fixed(source: str, unsafe: bool = False):
    settings = Settings(select=("AO302",), unsafe_fixes=unsafe)
    return optimize_source(STEP + source, settings=settings)


def test_a_bare_float_copy_is_kept_on_the_device_safely() -> None:
    fixed = _fixed(BARE)
    [finding] = fixed.findings
    assert finding.fix is Applicability.SAFE, finding.message
    assert "only to feed lists read at an interval: drop the copy" in finding.message
    assert fixed.new_source == STEP + BARE_FIXED
    (printed, before), (printed_after, after) = _run(STEP + BARE), _run(fixed.new_source)
    assert printed and printed == printed_after
    assert_same(before, after)


def test_items_of_a_pytree_not_proven_a_container_are_unsafe_and_keep_results() -> None:
    assert _fixed(KEYED).new_source == STEP + KEYED
    fixed = _fixed(KEYED, unsafe=True)
    [finding] = fixed.findings
    assert finding.fix is Applicability.UNSAFE
    assert "unsafe: cannot prove `results` is a dict, list or tuple of arrays" in (finding.message)
    assert "results = jax.device_get(results)" not in fixed.new_source
    (printed, before), (printed_after, after) = _run(STEP + KEYED), _run(fixed.new_source)
    assert printed and printed == printed_after
    assert_same(before, after)


MUST_NOT = {
    "the list read every step for a host decision": (
        BARE.replace(
            '            print(f"{np.mean(losses[-4:]):.6f}")\n',
            '            print(f"{np.mean(losses[-4:]):.6f}")\n'
            "        if losses[-1] < 0.1:\n            print('low')\n",
        ),
        "the host value is used for control flow in the loop",
    ),
    "the copy read after the loop": (
        BARE.replace("    return w, losses\n", "    return w, losses, loss\n"),
        "used after the loop: line 23 reads it (`return w, losses, loss`)",
    ),
    "the copy read by another statement": (
        BARE.replace(
            "        losses.append(loss)\n", "        losses.append(loss)\n        w = w * loss\n"
        ),
        "line 21 reads it (`w = w * loss`)",
    ),
    "a list fed every step read every step": (
        BARE.replace("        if step % 4 == 3:\n    ", "        if True:\n    "),
        "`losses` is read at line 22 under `if True`, whose test the loop does not change",
    ),
    "the device value donated later in the loop": (
        BARE.replace(
            "        loss = float(loss)\n",
            "        kept = loss\n        loss = float(loss)\n",
        )
        .replace(
            "    return w, losses\n",
            "        w = eat(kept, w)\n    return w, losses\n",
        )
        .replace(
            "def main(w):",
            "@functools.partial(jax.jit, donate_argnums=(0,))\n"
            "def eat(v, w):\n    return w + v\n\ndef main(w):",
        ),
        "is also passed to a call at line",
    ),
    "the list kept by unseen code while the loop runs": (
        BARE.replace(
            '            print(f"{np.mean(losses[-4:]):.6f}")\n',
            '            print(f"{np.mean(losses[-4:]):.6f}")\n            monitor.keep(losses)\n',
        ).replace("def main(w):", "from monitoring import monitor\n\ndef main(w):"),
        "`losses` is not an empty list set before the loop",
    ),
}


def test_a_list_handed_to_unseen_code_after_the_loop_sees_it_flushed() -> None:
    source = BARE.replace("    return w, losses\n", "    plot(losses)\n    return w, losses\n")
    source = source.replace("def main(w):", "from plotting import plot\n\ndef main(w):")
    [finding] = _fixed(source).findings
    assert finding.fix is Applicability.SAFE, finding.message


@pytest.mark.parametrize("name", MUST_NOT)
def test_must_not_cases_get_no_fix(name: str) -> None:
    source, reason = MUST_NOT[name]
    source = "import functools\n" + source if "functools" in source else source
    fixed = _fixed(source, unsafe=True)
    assert fixed.new_source == STEP + source
    syncs = [f for f in fixed.findings if "float(loss)" in f.message]
    assert syncs and all(f.fix is Applicability.NONE for f in syncs)
    assert reason in syncs[0].message, syncs[0].message
