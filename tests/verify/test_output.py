"""Printed output and logging are compared beside returned values."""

from __future__ import annotations

import json

from autoopt.verify import Candidate, Verdict, verify_candidates, verify_rewrite
from autoopt.verify.capture import Capture, load_output
from autoopt.verify.compare import Tolerance
from autoopt.verify.printed import compare_output, split_numbers
from autoopt.verify.runner import run_worker


def lines(*text: str, stream: str = "stdout") -> dict:
    return {stream: {"count": len(text), "lines": list(text)}}


def test_numbers_are_split_from_text_but_not_from_names() -> None:
    texts, numbers = split_numbers("step 3: loss=-1.25e-3 [1. 2.] float32 took 0.5s, nan info")
    assert numbers == ["3", "-1.25e-3", "1.", "2.", "0.5", "nan"]
    assert texts == ["step ", ": loss=", " [", " ", "] float32 took ", "s, ", " info"]


def test_printed_floats_within_tolerance_match_ints_and_text_exactly() -> None:
    assert compare_output(lines("loss 0.1234567"), lines("loss 0.1234568")).equal
    assert not compare_output(lines("loss 0.1234"), lines("loss 0.1236")).equal
    assert compare_output(lines("loss 0.1234"), lines("loss 0.1236"), Tolerance(rtol=1e-2)).equal
    assert not compare_output(lines("step 10"), lines("step 11")).equal
    assert compare_output(lines("x nan -inf"), lines("x nan -inf")).equal
    assert not compare_output(lines("x inf"), lines("x -inf")).equal
    text = compare_output(lines("a", "loss 1.0"), lines("a", "Loss 1.0"))
    assert text.reason == "printed output differs: line 2: `loss 1.0` vs `Loss 1.0`"


def test_missing_extra_and_reordered_lines_differ() -> None:
    twice = compare_output(lines("body 3.0"), lines("body 3.0", "body 3.0"))
    assert twice.reason == "printed output differs: line 2: (none) vs `body 3.0` (1 vs 2 in all)"
    assert not compare_output(lines("a", "b"), lines("b", "a")).equal
    err = compare_output(lines("e", stream="stderr"), {})
    assert err.reason.startswith("printed output differs: stderr line 1: `e` vs (none)")
    logs = compare_output({}, lines("WARNING prog: extra", stream="logs"))
    assert (
        logs.reason == "logging differs: record 1: (none) vs `WARNING prog: extra` (0 vs 1 in all)"
    )


def test_numbers_the_original_itself_varies_on_are_not_compared() -> None:
    first, second = lines("took 0.52 s, loss 1.5"), lines("took 0.61 s, loss 1.5")
    volatile = compare_output(first, second).numbers
    assert volatile == {("stdout", 0, 0)}
    assert compare_output(first, lines("took 0.2 s, loss 1.5"), volatile=volatile).equal
    assert not compare_output(first, lines("took 0.2 s, loss 1.7"), volatile=volatile).equal


def test_captured_lines_are_what_a_terminal_shows_with_folders_and_addresses_masked() -> None:
    capture = Capture(["/work/prog"])
    text = " 10%|#  | 1/10\r100%|###| 10/10\nat 0x7f3a2b1c00 in /work/prog/prog.py\n"
    assert capture._lines(text)["lines"] == ["100%|###| 10/10", "at 0x? in <dir>/prog.py"]


CAPTURED = """\
import logging, sys, warnings
import jax, jax.numpy as jnp

print("loading")


@jax.jit
def double(x):
    jax.debug.print("sum {s}", s=x.sum())
    return x * 2


def main():
    jax.config.update("jax_log_compiles", True)  # jax's warnings: not the program's
    print("hello", object())
    sys.stderr.write("to stderr\\n")
    logging.getLogger("prog").warning("warned %d", 3)
    logging.getLogger("prog").info("below the level: not emitted")
    logging.getLogger("jax._src.dispatch").warning("jax's own, not compared")
    warnings.warn("careful")
    return double(jnp.arange(3.0))
"""


def test_a_run_captures_prints_debug_prints_logs_and_warnings(tmp_path, program) -> None:
    path = program(CAPTURED)
    spec = {
        "mode": "run",
        "program": str(path),
        "module": "prog",
        "search_path": [str(path.parent)],
        "entry": "main",
    }
    run = run_worker(spec, tmp_path / "out", timeout=60, cwd=path.parent)
    assert run.ok, run.reason
    out = load_output(run.out_dir)
    assert out["stdout"]["lines"] == ["loading", "hello <object object at 0x?>", "sum 3.0"]
    assert out["stderr"]["lines"] == ["to stderr"]
    assert out["logs"]["lines"] == [
        "WARNING prog: warned 3",
        "WARNING jax._src.dispatch: jax's own, not compared",  # from the program's file
    ]
    assert out["warnings"]["lines"] == ["UserWarning: careful"]
    # still printed, as without autoopt
    assert "sum 3.0" in (run.out_dir / "stdout.txt").read_text()
    stderr = (run.out_dir / "stderr.txt").read_text()
    assert "careful" in stderr and "Compiling" in stderr
    json.dumps(out)


PRINTS = """\
import logging
import jax.numpy as jnp


def main():
    x = jnp.linspace(0.0, 1.0, 100)
    print("mean", 0.1234567)
    print("done")
    return x * 2
"""


def test_rewrites_that_print_or_log_differently_are_not_equivalent(program, fast) -> None:
    path = program(PRINTS)

    def rewrite(name: str, old: str, new: str) -> Candidate:
        assert old in PRINTS
        return Candidate("T", name, 7, PRINTS.replace(old, new))

    candidates = [
        rewrite("same lines", "x * 2", "x + x"),
        rewrite("7th digit", "0.1234567", "0.1234568"),
        rewrite("prints twice", '    print("done")\n', '    print("done")\n' * 2),
        rewrite("other text", '"done"', '"Done"'),
        rewrite("logs", "    return", '    logging.warning("extra")\n    return'),
    ]
    rows = verify_candidates(path, candidates, fast).rows
    for row in rows[:2]:
        assert row.verdict is not Verdict.NOT_EQUIVALENT and row.max_abs == 0, row.reason
    assert [row.reason for row in rows[2:]] == [
        "printed output differs: line 3: (none) vs `done` (2 vs 3 in all)",
        "printed output differs: line 2: `done` vs `Done`",
        "logging differs: record 1: (none) vs `WARNING root: extra` (0 vs 1 in all)",
    ]
    assert all(row.verdict is Verdict.NOT_EQUIVALENT for row in rows[2:])


REMAT = """\
import jax
import jax.numpy as jnp


def body(x):
    jax.debug.print("body {s}", s=x.sum())
    return jnp.sin(x)


def loss(x):
    return body(x).sum()


def main():
    return jax.grad(loss)(jnp.arange(3.0))
"""


def test_a_debug_print_doubled_under_checkpoint_is_not_equivalent(program, fast) -> None:
    path = program(REMAT)
    rewritten = REMAT.replace(
        "    return body(x).sum()", "    return jax.checkpoint(body)(x).sum()"
    )
    row = verify_rewrite(path, rewritten, rule="AO601", options=fast).rows[0]
    assert row.verdict is Verdict.NOT_EQUIVALENT and row.max_abs == 0, row.reason
    assert row.reason == "printed output differs: line 2: (none) vs `body 3.0` (1 vs 2 in all)"
