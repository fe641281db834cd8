"""CI slice of the differential fuzzer (benchmarks/fuzz_rewrites.py, issue 27 item 6).

A fixed seed, 100 generated programs, two worker processes (each imports jax once and
forks a child per batch of programs, benchmarks/fuzz_runner.py). The default rewrite
must keep every program's results, exceptions and output, must be idempotent (a second
rewrite changes nothing), and must apply a safe fix to at least 30% of the programs
(else the generator no longer exercises the rewrites).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import fuzz_rewrites  # noqa: E402

SEED, COUNT, JOBS = 3, 100, 2


@pytest.fixture(scope="module")
def outcomes():
    return fuzz_rewrites.run(SEED, COUNT, JOBS, out=None, do_shrink=False)


def test_fuzz_slice_keeps_results(outcomes):
    bad = [o for o in outcomes if o.failure and o.failure != "non-idempotent"]
    assert not bad, fuzz_rewrites.report(bad)


def test_fuzz_slice_rewrites_are_idempotent(outcomes):
    bad = [o for o in outcomes if o.failure == "non-idempotent"]
    assert not bad, fuzz_rewrites.report(bad)


def test_fuzz_slice_exercises_safe_fixes(outcomes):
    assert len(outcomes) == COUNT
    assert sum(o.fixed for o in outcomes) >= 0.3 * COUNT, fuzz_rewrites.report(outcomes)


@pytest.mark.parametrize("name", sorted(fuzz_rewrites.FRAGMENTS))
def test_every_fragment_renders_a_hazard_and_its_benign_twin(name):
    """Each hazard fragment names its class, and its two renderings are programs that
    differ (the hazard lines), whatever the loop length."""
    assert fuzz_rewrites.fragment_class(name) in fuzz_rewrites.CLASSES
    for n in range(2, 6):
        codes = []
        for hazard in (False, True):
            part = fuzz_rewrites.Part("", 0, n, frozenset(), name, hazard)
            codes.append(fuzz_rewrites.Program("p", [part]).code())
            compile(codes[-1], name, "exec")
        assert codes[0] != codes[1]


def test_a_program_that_kills_its_batch_only_fails_itself():
    """Programs run many to a child; one that kills the child is run again alone and
    reported as died, the others of its batch still get their results."""
    from benchmarks.fuzz_runner import run_codes

    ok = "def main():\n    return {value}\n"
    dies = "import os\n\ndef main():\n    os._exit(3)\n"
    records = run_codes({"a": ok.format(value=1), "b": dies, "c": ok.format(value=2)})
    assert records["a"]["ok"] and records["a"]["value"] == ("py", "int", 1)
    assert records["b"] == {"ok": False, "error": "the program's process died"}
    assert records["c"]["ok"] and records["c"]["value"] == ("py", "int", 2)
