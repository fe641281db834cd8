"""End-to-end verification in subprocesses: rejections with reasons, acceptances with numbers."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from autoopt.model import Applicability, AutooptError, Finding, RequireImport, Result, Span
from autoopt.verify import Candidate, Verdict, verify_candidates, verify_file, verify_rewrite
from autoopt.verify.pipeline import entry_of
from autoopt.verify.runner import run_worker

FAILED = {Verdict.CRASHED, Verdict.TIMEOUT, Verdict.KILLED, Verdict.OUT_OF_MEMORY, Verdict.EXITED}

CHAIN = """\
import jax.numpy as jnp


def chain(x):
    for _ in range(10):
        x = jnp.sin(x) * 0.5 + jnp.cos(x) * 0.25
    return x


def main():
    x = jnp.linspace(0.0, 1.0, 1000)
    for _ in range(30):
        x = chain(x)
    return {"x": x, "total": float(x.sum())}
"""


def test_wrong_rewrites_are_rejected_with_the_error_size(program, fast) -> None:
    path = program(CHAIN)
    constant = Candidate("T", "constant", 6, CHAIN.replace("* 0.25", "* 0.2501"))
    dropped = Candidate("T", "dropped term", 6, CHAIN.replace(" + jnp.cos(x) * 0.25", ""))
    report = verify_candidates(path, [constant, dropped], fast)
    for row in report.rows:
        assert row.verdict is Verdict.NOT_EQUIVALENT, row.reason
        assert row.max_abs > 0 and "max abs" in row.reason and "max rel" in row.reason
    assert report.rows[1].max_rel > 0.1
    assert report.accepted_source == CHAIN and report.exit_code == 1


SCALE = """\
import jax.numpy as jnp


def scale(x, n):
    return x * n + 1.0


def main():
    x = jnp.ones(100)
    for n in range(12):
        x = scale(x, n) / 12.0
    return x
"""


def test_rewrite_that_recompiles_every_call_is_rejected_as_slower(program, fast) -> None:
    path = program(SCALE)
    slow = SCALE.replace(
        "def scale(x, n):",
        "import functools\n\nimport jax\n\n\n"
        "@functools.partial(jax.jit, static_argnames='n')\ndef scale(x, n):",
    )
    report = verify_rewrite(path, slow, rule="AO101", target="scale", options=fast)
    row = report.rows[0]
    assert row.verdict is Verdict.SLOWER, row.reason
    assert row.program and row.program.speedup < 1 and "program" in row.reason
    assert row.compiles_after > row.compiles_before


FAILING = {
    "raises": ("raise ValueError('boom')", Verdict.CRASHED, "ValueError: boom (at prog.py:"),
    "hangs": ("time.sleep(600)", Verdict.TIMEOUT, "timed out after"),
    "os._exit": ("os._exit(3)", Verdict.EXITED, "exited with status 3 before returning"),
    "sys.exit": ("sys.exit(4)", Verdict.EXITED, "called sys.exit(4)"),
    "allocates": (
        "junk = [np.ones(10_000_000) for _ in range(10_000)]",
        Verdict.OUT_OF_MEMORY,
        "MemoryError",
    ),
    "killed": ("os.kill(os.getpid(), signal.SIGKILL)", Verdict.KILLED, "SIGKILL"),
}

SMALL = """\
import os, signal, sys, time
import numpy as np
import jax.numpy as jnp


def main():
    x = jnp.arange(8.0)
    return x * 2
"""


def test_failing_rewrites_are_reported_and_verification_goes_on(program, fast) -> None:
    path = program(SMALL)
    candidates = [
        Candidate("T", name, 7, SMALL.replace("    return x * 2", f"    {code}\n    return x * 2"))
        for name, (code, _, _) in FAILING.items()
    ]
    candidates.append(Candidate("T", "harmless", 7, SMALL.replace("x * 2", "x + x")))
    options = replace(fast, timeout=10, memory_limit=1 << 30)
    report = verify_candidates(path, candidates, options)
    for row, (name, (_, verdict, words)) in zip(report.rows, FAILING.items(), strict=False):
        assert row.verdict is verdict, (name, row.reason)
        assert words in row.reason, (name, row.reason)
    last = report.rows[-1]
    assert last.verdict not in FAILED and last.max_abs == 0 and last.program is not None


def test_original_that_fails_is_an_error(program, fast) -> None:
    path = program(SMALL.replace("return x * 2", "return 1 / 0"))
    report = verify_rewrite(path, SMALL, options=fast)
    assert report.exit_code == 2 and "ZeroDivisionError" in report.error


DONATE = """\
import jax
import jax.numpy as jnp


@jax.jit
def update(state, delta):
    return state * 0.99 + delta


def main():
    state, delta = jnp.zeros(2_000_000), jnp.ones(2_000_000)
    for _ in range(50):
        state = update(state, delta)
    return state
"""


def test_donation_is_accepted_on_its_memory_win(program, fast) -> None:
    path = program(DONATE)
    donated = DONATE.replace("@jax.jit\n", "@functools.partial(jax.jit, donate_argnums=0)\n")
    donated = "import functools\n" + donated
    report = verify_rewrite(path, donated, rule="AO201", target="update", options=fast)
    row = report.rows[0]
    assert row.verdict is Verdict.ACCEPTED, row.reason
    assert row.memory.donated_after == 1 and row.memory.donated_before == 0
    assert row.memory.compiled_after["alias"] == 8_000_000
    assert row.memory.compiled_after["footprint"] < row.memory.compiled_before["footprint"]
    assert "donation confirmed" in row.reason


def test_entry_errors_say_how_to_name_one(program) -> None:
    no_main = "import jax\n\ndef run():\n    return 1\n"
    with pytest.raises(AutooptError, match="--entry MODULE:FUNC"):
        entry_of(program(no_main), no_main, None)
    takes_args = "def main(n):\n    return n\n"
    with pytest.raises(AutooptError, match="main\\(\\) takes arguments"):
        entry_of(program(takes_args), takes_args, None)
    assert entry_of(program(no_main), no_main, "run") == "run"


def test_module_func_entry_sees_the_rewritten_module(program, fast) -> None:
    source = CHAIN.replace("def main():", "def compute():")
    path = program(source)
    program("import prog\n\n\ndef run():\n    return prog.compute()\n", name="runner.py")
    wrong = source.replace("* 0.25", "* 0.3")
    row = verify_rewrite(path, wrong, options=replace(fast, entry="runner:run")).rows[0]
    assert row.verdict is Verdict.NOT_EQUIVALENT, row.reason


SYNCS = """\
import jax
import jax.numpy as jnp
import numpy as np


def step(params, batch, lr):
    return {"w": params["w"] - lr * batch[0].sum()}, lr


def main():
    x = jnp.arange(4.0)
    s = x.sum()
    float(s); s.item(); np.asarray(x); x.tolist(); bool(s > 0); jax.device_get(x)
    f = jax.jit(lambda a: a * 2)
    f(np.ones(4))
    params = {"w": jnp.ones(3)}
    for i in range(3):
        params, _ = step(params, (np.ones(2), i), 0.1)
    return params
"""


def test_worker_counts_syncs_transfers_and_captures_calls(tmp_path, program) -> None:
    path = program(SYNCS)
    spec = {
        "mode": "run",
        "program": str(path),
        "module": "prog",
        "search_path": [str(path.parent)],
        "entry": None,
        "instrument": True,
        "capture": {"targets": ["step"], "dir": str(tmp_path / "cap"), "max_calls": 2},
    }
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent)
    assert run.ok, run.reason
    syncs = run.result["syncs"]
    for label in ("float()", ".item()", "np.asarray()", ".tolist()", "bool()", "jax.device_get()"):
        assert syncs.get(label) == 1, (label, syncs)
    assert run.transfers["host-to-device"] >= 2  # the numpy argument and the 0 in `s > 0`
    assert run.result["captured"]["step"] == {"calls": 2, "error": ""}
    assert sorted(p.name for p in (tmp_path / "cap" / "step").iterdir()) == [
        "0.npz",
        "0.pkl",
        "1.npz",
        "1.pkl",
    ]


def test_autoopt_process_never_imports_jax(program) -> None:
    path = program(CHAIN)
    code = textwrap.dedent(f"""
        import json, sys
        from autoopt.verify import VerifyOptions, verify_rewrite
        report = verify_rewrite({str(path)!r}, {CHAIN.replace("0.25", "0.5")!r},
                                options=VerifyOptions(repeats=1))
        print(json.dumps([report.rows[0].verdict.value, "jax" in sys.modules]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == ["not equivalent", False]


TWO_CHAINS = """\
import jax
import jax.numpy as jnp


def chain_a(x):
    for _ in range(10):
        x = jnp.sin(x) * 0.5 + jnp.cos(x) * 0.25
    return x


def chain_b(x):
    for _ in range(10):
        x = jnp.tanh(x) * 0.5 + x * 0.125
    return x


def main():
    x = jnp.linspace(0.0, 1.0, 1000)
    for _ in range(100):
        x = chain_b(chain_a(x))
    return x
"""


def fake_finding(rule: str, line: int, target: str | None) -> Finding:
    span = Span(line, 1, line, 10)
    edits = (RequireImport("jax"),)
    return Finding(rule, "fake", "msg", span, Applicability.SAFE, edits, target, "fix")


def fake_apply(code: str, findings: list[Finding], *, path: str) -> str:
    """jit for findings with a target; a wrong constant for the others."""
    for finding in findings:
        if finding.target:
            code = code.replace(f"def {finding.target}(", f"@jax.jit\ndef {finding.target}(")
        else:
            code = code.replace("* 0.25", "* 0.3")
    return code


def test_correct_jit_rewrites_are_accepted_alone_and_together(program, fast, monkeypatch) -> None:
    from autoopt import api

    findings = [
        fake_finding("AO101", 5, "chain_a"),
        fake_finding("AO101", 11, "chain_b"),
        fake_finding("AO302", 7, None),
    ]
    result = Result("prog.py", TWO_CHAINS, findings, TWO_CHAINS)
    monkeypatch.setattr(api, "optimize_source", lambda code, **_: result)
    monkeypatch.setattr(api, "apply_fixes", fake_apply)
    start = time.perf_counter()
    report = verify_file(program(TWO_CHAINS), options=fast)
    elapsed = time.perf_counter() - start
    jit_a, jit_b, wrong = report.rows
    for row in (jit_a, jit_b):
        assert row.verdict is Verdict.ACCEPTED, row.reason
        assert row.function and row.function.speedup > 1 and row.function.faster
        assert row.function.compile_s_after is not None and row.max_rel < 1e-4
    assert wrong.verdict is Verdict.NOT_EQUIVALENT
    assert report.combined and report.combined.verdict is Verdict.ACCEPTED
    assert report.accepted_source.count("@jax.jit") == 2 and "0.3" not in report.accepted_source
    assert [finding.target for finding in report.kept] == ["chain_a", "chain_b"]
    assert report.exit_code == 1
    phases = ["baseline", "first_round", "steady_state", "more_rounds", "together"]
    assert list(report.timings) == phases
    assert report.timings["baseline"] > 0 and report.timings["first_round"] > 0
    assert report.timings["steady_state"] > 0 and sum(report.timings.values()) <= elapsed
    assert report.to_json()["timings"] == report.timings


PROGRAMS = Path(__file__).parent / "programs"


@pytest.mark.parametrize("name", ["chaotic_standard_map", "chaotic_lorenz"])
def test_a_chaotic_program_whose_compiled_rounding_grows_is_not_equivalent(
    program, fast, name
) -> None:
    """jit agrees with eager execution to rounding per step; a chaotic loop grows that
    into another result. The default rewrite compiles it (the rule cannot see chaos), and
    verification must reject it (docs/verification.md, "Equivalence")."""
    report = verify_file(program((PROGRAMS / f"{name}.py").read_text()), options=fast)
    assert report.rows and all(r.verdict is Verdict.NOT_EQUIVALENT for r in report.rows)
    assert report.accepted_source == (PROGRAMS / f"{name}.py").read_text()
