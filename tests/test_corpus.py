"""Every corpus program, rewritten by `autoopt rewrite --write`, computes the same results.

Positives must get at least one rewrite (those in UNSAFE_ONLY under `--unsafe-fixes`,
their only fix being unsafe); negatives (`neg_*` and the programs in
NEGATIVES, where a naive rewrite would change the results) may be reported but
must keep their results. Each program runs in a process of its own, original and
rewritten side by side; results are compared leaf by leaf with the verifier's
dtype-aware tolerances (docs/verification.md). The processes are forked from two
interpreters that imported autoopt and jax once (tests/prefork.py); a program that sets
the environment jax reads gets a fresh interpreter.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoopt.api import optimize_source
from autoopt.verify.compare import compare_trees
from autoopt.verify.trees import load_tree
from tests.forking import isolated
from tests.prefork import Prefork

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
RUNNER = Path(__file__).with_name("corpus_runner.py")
NEGATIVES = {"impure_logging_step", "traced_control_flow", "host_rng_step"}
#: Positives whose only rewrite is unsafe (AO702): rewritten with `--unsafe-fixes`.
#: Programs whose only fix is unsafe: `history_buffer`'s AO402 list form, whose pieces come
#: from a jitted function that the analysis cannot prove keeps their dtype. `big_optimizer`
#: and `style_linen_trainstate`: AO201, unsafe since a `jax.jit` body sees the aux data of
#: a pytree argument as the caller's objects (tests/hazards h1648), unless the pytree is
#: proven arrays: `items` and `test_ds`, passed beside the donated tree, are not.
UNSAFE_ONLY = {"shared_gpu_workers", "history_buffer", "big_optimizer", "style_linen_trainstate"}
PROGRAMS = sorted(p for p in CORPUS.glob("*.py") if not p.stem.endswith("_expert"))
#: What `python -m autoopt rewrite` and `corpus_runner.py` import, imported once.
AUTOOPT_MODULES = ["autoopt.frontends.cli", "autoopt.api", "autoopt.workspace.runner"]
JAX_MODULES = ["jax", "autoopt.verify.probes", "autoopt.verify.trees"]


@pytest.fixture(scope="module")
def autoopt_python() -> Iterator[Prefork]:
    server = Prefork(AUTOOPT_MODULES)
    yield server
    server.close()


@pytest.fixture(scope="module")
def jax_python() -> Iterator[Prefork]:
    server = Prefork(JAX_MODULES)
    yield server
    server.close()


def is_negative(program: Path) -> bool:
    return program.stem.startswith("neg_") or program.stem in NEGATIVES


def test_corpus_has_the_programs_the_issues_ask_for() -> None:
    assert len(PROGRAMS) >= 8
    assert sum(is_negative(p) for p in PROGRAMS) >= 3


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_rewritten_program_computes_the_same_results(
    program: Path, tmp_path: Path, autoopt_python: Prefork, jax_python: Prefork
) -> None:
    original = tmp_path / "original" / program.name
    rewritten = tmp_path / "rewritten" / program.name
    for copy in (original, rewritten):
        copy.parent.mkdir()
        shutil.copy(program, copy)
    unsafe = ["--unsafe-fixes"] if program.stem in UNSAFE_ONLY else []
    command = ["rewrite", str(rewritten), "--write", "--no-progress", *unsafe]
    (write,) = autoopt_python.run([["-m", "autoopt", *command]], timeout=300)
    assert write.returncode == 0, write.stderr
    changed = rewritten.read_text() != program.read_text()
    if not is_negative(program):
        assert changed, (
            f"no rewrite for a positive: {optimize_source(program.read_text()).findings}"
        )
    if not changed:
        return
    paths = {"original": original, "rewritten": rewritten}
    runs = jax_python.run(
        [[str(RUNNER), str(path), str(tmp_path), name] for name, path in paths.items()],
        timeout=300,
        fresh=[isolated(path.read_text()) for path in paths.values()],
    )
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    x64 = "jax_enable_x64" in program.read_text()
    result = compare_trees(
        load_tree(tmp_path, "original"), load_tree(tmp_path, "rewritten"), x64=x64
    )
    assert result.equal, result.reason
