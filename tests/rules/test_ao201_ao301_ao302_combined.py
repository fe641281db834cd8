"""AO201/AO301/AO302 beyond the in-rule examples: rules combined, and corpus programs run."""

from __future__ import annotations

from pathlib import Path

import jax
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from tests.rules.helpers import assert_same, load_module

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
RULES = ("AO101", "AO201", "AO301", "AO302")


def _rewrite(code: str, rules: tuple[str, ...] = RULES):
    return optimize_source(code, settings=Settings(select=rules))


def test_donation_merges_into_the_jit_ao101_adds() -> None:
    code = """
import jax.numpy as jnp

def relax(u, n):
    return jnp.roll(u, 1) * 0.5 + jnp.zeros(n)

def main():
    u = jnp.ones(8)
    for _ in range(3):
        u = relax(u, 8)
    return u
"""
    together = _rewrite(code, ("AO101", "AO201")).new_source
    alone = _rewrite(code, ("AO201",)).new_source
    decorator = '@functools.partial(jax.jit, static_argnames=("n",), donate_argnames=("u",))'
    assert decorator in together
    assert together == alone
    assert _rewrite(together).new_source == together


def test_ao201_keeps_safety_of_ao101_when_it_adds_the_jit() -> None:
    code = """
import jax.numpy as jnp

def head(x, k):
    return jnp.abs(x[:k]) + 1.0

def main(x, k):
    while True:
        x = head(x, k)

main(jnp.ones(8), int(input()))
"""
    findings = {f.rule: f for f in _rewrite(code).findings}
    assert findings["AO101"].fix is Applicability.UNSAFE
    assert findings["AO201"].fix is Applicability.UNSAFE


def test_hoisted_transfer_is_never_donated_in_the_same_run() -> None:
    code = """
import jax
import jax.numpy as jnp

@jax.jit
def step(state, x):
    return state + x

def main(init):
    for _ in range(3):
        state = jnp.asarray(init)
        state = step(state, 1.0)
    return state
"""
    result = optimize_source(code, settings=Settings(select=RULES, unsafe_fixes=True))
    fixes = {f.rule: f.fix for f in result.findings}
    assert fixes == {"AO201": Applicability.UNSAFE, "AO301": Applicability.UNSAFE}
    safe = _rewrite(code).new_source
    assert "donate" not in safe and "init_dev" not in safe


def test_kept_device_value_is_not_donated_later() -> None:
    code = """
import jax

@jax.jit
def step(x):
    return x * 0.5

def main(x):
    x = jax.device_put(x)
    firsts = []
    for _ in range(3):
        firsts.append(x[0].item())
        x = step(x)
    return firsts
"""
    findings = {f.rule: f for f in _rewrite(code).findings}
    assert findings["AO302"].fix is Applicability.NONE


def test_loop_variant_reads_block_hoisting() -> None:
    code = """
import jax.numpy as jnp
import numpy as np

def fill(buf):
    buf[0] = 1.0

def main():
    data = np.zeros(4)
    out = []
    for _ in range(3):
        fill(data)
        out.append(jnp.asarray(data))
    return out
"""
    assert not [f for f in _rewrite(code).findings if f.rule == "AO301"]


def test_aliased_list_is_not_rebound() -> None:
    code = """
import jax.numpy as jnp

def main(xs):
    losses = []
    history = {"loss": losses}
    for x in xs:
        losses.append(float(jnp.sum(x)))
    return history
"""
    (finding,) = [f for f in _rewrite(code).findings if f.rule == "AO302"]
    assert finding.fix is Applicability.NONE


def _main(path: Path, name: str, overrides: dict[str, int]) -> object:
    module = load_module(path, name)
    for key, value in overrides.items():
        setattr(module, key, value)
    return jax.block_until_ready(module.main())


def _same_types(before: object, after: object) -> None:
    """Python values stay Python values of the same type (lists of floats stay floats)."""
    kinds = [type(x).__name__ for x in jax.tree.leaves(before)]
    assert kinds == [type(x).__name__ for x in jax.tree.leaves(after)]


PROGRAMS = [
    ("donate_state_train", {"STEPS": 4}, {"AO201"}),
    # AO201 unsafe: `evaluate(params, ...)` is jitted and `params`, joined with the step's
    # output, is a pytree of nodes not proven: its aux data the body sees as it is
    ("numpy_batches_train", {"EPOCHS": 5}, {"AO301"}),
    ("device_dataset_train", {"EPOCHS": 2}, {"AO201", "AO301"}),
    ("loss_sync_train", {"STEPS": 20}, {"AO201", "AO302"}),
    # AO201 unsafe: `snapshots` keeps `np.asarray(x)`, and `x` (carried through the jitted
    # step) is not proven an array, so the copy may hold it
    ("particle_sim_diagnostics", {"N_STEPS": 25}, {"AO302"}),
    # AO201 unsafe: `grad_fn(params, users[step], ...)` hands a jit `params` (a pytree of
    # nodes not proven, joined with `update`'s output) and items of kinds not proven
    ("big_optimizer", {"STEPS": 3}, set()),
    ("trainer_class", {"STEPS": 3, "EPOCHS": 2}, {"AO201"}),
    ("neg_early_stopping", {"MAX_STEPS": 50}, {"AO201"}),
    ("neg_alias_best", {"STEPS": 20}, set()),
    ("neg_donated_read_after", {"N_SWEEPS": 20}, set()),
    ("neg_loop_variant_host", {"STEPS": 5}, {"AO201"}),
]


def _id(value: object) -> str:
    """Ids every xdist worker spells the same (a set's order follows the hash seed)."""
    return str(sorted(value) if isinstance(value, set) else value)


@pytest.mark.parametrize(("program", "overrides", "applied"), PROGRAMS, ids=_id)
def test_corpus_program_computes_the_same(
    tmp_path: Path, program: str, overrides: dict[str, int], applied: set[str]
) -> None:
    path = CORPUS / f"{program}.py"
    if not path.exists():
        pytest.skip(f"{path.name} is not in the corpus")
    result = _rewrite(path.read_text(encoding="utf-8"))
    assert {f.rule for f in result.applied} - {"AO101"} == applied
    rewritten = tmp_path / f"{program}_rewritten.py"
    rewritten.write_text(result.new_source, encoding="utf-8")
    before = _main(path, f"{program}_before", overrides)
    after = _main(rewritten, f"{program}_after", overrides)
    assert_same(before, after)
    _same_types(before, after)
