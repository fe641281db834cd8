"""AO501: the vmapped snippets compute what the loops did."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.api import check_source, optimize_source

from .helpers import assert_same, rewrite, run_snippet

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

VMAPS = [
    """
import jax
import jax.numpy as jnp
def predict(x, w):
    return jnp.tanh(w @ x)
def run(xs, w):
    xs = jnp.asarray(xs)
    outs = []
    for x in xs:
        outs.append(predict(x, w))
    return jnp.stack(outs)
result = run(jnp.arange(24.0).reshape(8, 3) / 10, jnp.ones((2, 3)))
""",
    """
import jax
import jax.numpy as jnp
def sample(key, mu):
    return mu + jax.random.normal(key, (3,))
keys = jax.random.split(jax.random.PRNGKey(0), 5)
result = jnp.stack([sample(k, 1.0) for k in keys])
""",
    """
import jax
import jax.numpy as jnp
def f(x: jax.Array, scale):
    return (jnp.sin(x) * scale).sum()
def run(xs: jax.Array):
    outs = []
    for i in range(xs.shape[0]):
        outs.append(f(xs[i], 2))
    return jnp.array(outs)
result = run(jnp.arange(10, dtype=jnp.int32).reshape(5, 2))
""",
]


@pytest.mark.parametrize("source", VMAPS)
def test_ao501_vmap_matches_loop(source: str) -> None:
    result = rewrite(source, ("AO501",))
    assert [f.rule for f in result.applied] == ["AO501"]
    assert "vmap" in result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source), rtol=1e-5)


def test_ao501_differing_shapes_are_left_alone() -> None:
    source = """
import jax.numpy as jnp
def f(x):
    return x.sum()
xs = [jnp.ones(3), jnp.ones(4)]
result = jnp.stack([f(x) for x in xs])
"""
    result = rewrite(source, ("AO501",), unsafe=True)
    assert result.new_source == source
    assert result.findings[0].fix.value == "none"


BOOTSTRAP = """
import jax
import jax.numpy as jnp

N = 32

def resample(key, x, y):
    idx = jnp.floor(jax.random.uniform(key, x.shape) * x.shape[0]).astype(jnp.int32)
    return x[idx], y[idx]

def huber_line(x, y):
    coef = jnp.zeros(2)
    for _ in range(4):
        r = jnp.abs(y - coef[0] - coef[1] * x)
        w = jnp.where(r <= 1.0, 1.0, 1.0 / r)
        sw, swx, swy = w.sum(), (w * x).sum(), (w * y).sum()
        slope = (sw * (w * x * y).sum() - swx * swy) / (sw * (w * x * x).sum() - swx**2)
        coef = jnp.stack([(swy - slope * swx) / sw, slope])
    return coef

def main(x, y):
    keys = jax.random.split(jax.random.PRNGKey(0), N)
    fits = []
    for i in range(N):
        xb, yb = resample(keys[i], x, y)
        fits.append(huber_line(xb, yb))
    fits = jnp.stack(fits)
    return fits, fits[:, 1].mean()

x = jnp.linspace(-3.0, 3.0, 64)
result = main(x, 1.5 * x - 0.7 + jnp.sin(7 * x))
"""


BOOTSTRAP_VMAPPED = """
import functools

import jax
import jax.numpy as jnp

N = 32

def resample(key, x, y):
    idx = jnp.floor(jax.random.uniform(key, x.shape) * x.shape[0]).astype(jnp.int32)
    return x[idx], y[idx]

def huber_line(x, y):
    coef = jnp.zeros(2)
    for _ in range(4):
        r = jnp.abs(y - coef[0] - coef[1] * x)
        w = jnp.where(r <= 1.0, 1.0, 1.0 / r)
        sw, swx, swy = w.sum(), (w * x).sum(), (w * y).sum()
        slope = (sw * (w * x * y).sum() - swx * swy) / (sw * (w * x * x).sum() - swx**2)
        coef = jnp.stack([(swy - slope * swx) / sw, slope])
    return coef


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, None, None))
def _main_per_item(key, x, y):
    xb, yb = resample(key, x, y)
    return huber_line(xb, yb)


def main(x, y):
    keys = jax.random.split(jax.random.PRNGKey(0), N)
    fits = _main_per_item(keys, x, y)
    return fits, fits[:, 1].mean()

x = jnp.linspace(-3.0, 3.0, 64)
result = main(x, 1.5 * x - 0.7 + jnp.sin(7 * x))
"""


def test_ao501_multi_statement_body_matches_loop() -> None:
    result = rewrite(BOOTSTRAP, ("AO501",))
    assert [(f.rule, f.fix.value) for f in result.findings] == [("AO501", "safe")]
    assert result.findings[0].message == (
        "the body runs once per item of `keys` and the results are stacked: "
        "`_main_per_item(...)`, its jitted `jax.vmap`, computes them in one call"
    )
    assert result.new_source == BOOTSTRAP_VMAPPED
    assert_same(run_snippet(BOOTSTRAP), run_snippet(result.new_source), rtol=1e-5)
    assert rewrite(result.new_source, ("AO501",)).findings == []


@pytest.mark.parametrize(
    ("program", "findings"),
    [
        ("neg_chained_items", []),  # each item reads the profile the previous one wrote
        (
            "neg_impure_per_example",
            [
                "`classify_one` is applied to each example and stacked, but `classify_one` is "
                "not pure: it writes the global `n_flagged`"
            ],
        ),
    ],
)
def test_ao501_corpus_negatives_get_no_fix(program: str, findings: list[str]) -> None:
    source = (CORPUS / f"{program}.py").read_text()
    result = rewrite(source, ("AO501",), unsafe=True)
    assert [f.message for f in result.findings] == findings
    assert result.new_source == source


PER_ITEM_WITH_UPDATE = """
import jax
import jax.numpy as jnp
N = 16
def embed(key):
    return jnp.tanh(jax.random.normal(key, (4,)))
def main():
    keys = jax.random.split(jax.random.PRNGKey(0), N)
    out = []
    for i in range(N):
        e = embed(keys[i])
        e = e.at[0].set(1.0)
        out.append(e * 2.0)
    return jnp.stack(out)
result = main()
"""


def test_a_vmapped_loop_owns_its_statements() -> None:
    """AO401 would move the `.at` update into a donating helper, which the vmap fix
    leaves unused: a loop that AO501 replaces gets no per-statement fix."""
    _, findings = check_source(PER_ITEM_WITH_UPDATE)
    assert sorted((f.rule, f.fix.value) for f in findings) == [("AO101", "safe"), ("AO501", "safe")]
    result = optimize_source(PER_ITEM_WITH_UPDATE)
    assert "set_at" not in result.new_source and "_main_per_item(keys)" in result.new_source
    assert_same(run_snippet(PER_ITEM_WITH_UPDATE), run_snippet(result.new_source))
