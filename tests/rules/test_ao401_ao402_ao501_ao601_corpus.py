"""The corpus programs of AO401/AO402/AO501/AO601: which rule fires, and that the
rewritten program's `main()` returns what the original's does."""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from .helpers import assert_same, load_module, rewrite, run_main

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

#: Program -> the rules whose safe fixes apply, and module constants that shrink it.
POSITIVES: dict[str, tuple[list[str], dict[str, object]]] = {
    "rnn_outputs": (["AO401"], {"T": 40}),
    # the covariance `P` goes through matrix products, so its shape is not proven constant:
    # two donating update helpers, not one fori_loop
    "kalman_filter": (["AO401", "AO401"], {"T": 30}),
    "monte_carlo_per_sample": (["AO501"], {"N_PATHS": 2000}),
    "deep_resnet_grad": (["AO601"], {"STEPS": 1}),
}
#: Program -> the rules whose fixes apply with `--unsafe-fixes`, and shrinking constants:
#: `history_buffer`'s pieces come from a jitted function, so that their dtype is the
#: history's on every step is not proven (AO402's list form is unsafe there).
UNSAFE_POSITIVES: dict[str, tuple[list[str], dict[str, object]]] = {
    "history_buffer": (["AO402"], {"N_STEPS": 60}),
}
#: Negatives: no safe fix of these rules may change them.
NEGATIVES = [
    "neg_carry_loop",
    "neg_out_of_range_index",
    "neg_impure_per_example",
    "neg_shallow_remat",
]


def _source(name: str) -> str:
    path = CORPUS / f"{name}.py"
    if not path.exists():
        pytest.skip(f"{path.name} is not in the corpus yet")
    return path.read_text()


@pytest.mark.parametrize(
    ("name", "unsafe"),
    [(n, False) for n in sorted(POSITIVES)] + [(n, True) for n in sorted(UNSAFE_POSITIVES)],
)
def test_positive_rewrites_keep_results(name: str, unsafe: bool, tmp_path: Path) -> None:
    rules, constants = (UNSAFE_POSITIVES if unsafe else POSITIVES)[name]
    if unsafe:
        assert not rewrite(_source(name)).applied, "a safe fix applies: list it in POSITIVES"
    result = rewrite(_source(name), unsafe=unsafe)
    assert sorted(f.rule for f in result.applied) == rules
    rewritten = tmp_path / f"{name}_rewritten.py"
    rewritten.write_text(result.new_source)
    before = run_main(CORPUS / f"{name}.py", f"{name}_original", constants)
    after = run_main(rewritten, f"{name}_rewritten", constants)
    assert_same(before, after)


@pytest.mark.parametrize("name", NEGATIVES)
def test_negatives_are_unchanged(name: str) -> None:
    source = _source(name)
    result = rewrite(source)
    assert result.new_source == source, [f.message for f in result.applied]


def test_remat_halves_compiled_temp_memory(tmp_path: Path) -> None:
    """Issue acceptance: at least 2x less compiled temp memory, equal gradients."""
    result = rewrite(_source("deep_resnet_grad"), ("AO601",))
    rewritten = tmp_path / "deep_resnet_grad_remat.py"
    rewritten.write_text(result.new_source)
    original = load_module(CORPUS / "deep_resnet_grad.py", "deep_resnet_grad_mem_a")
    remat = load_module(rewritten, "deep_resnet_grad_mem_b")
    temp_a, grads_a = _temp_and_grads(original)
    temp_b, grads_b = _temp_and_grads(remat)
    assert temp_a >= 2 * temp_b, (temp_a, temp_b)
    for a, b in zip(jax.tree.leaves(grads_a), jax.tree.leaves(grads_b), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


def _temp_and_grads(module) -> tuple[int, object]:
    rng = np.random.default_rng(0)
    params = module.init_params(rng)
    x = jnp.asarray(rng.normal(size=(module.BATCH, module.D_MODEL)), dtype=jnp.float32)
    y = jnp.sin(x[:, :4].sum(-1))
    compiled = jax.jit(jax.value_and_grad(module.loss_fn)).lower(params, x, y).compile()
    return compiled.memory_analysis().temp_size_in_bytes, compiled(params, x, y)
