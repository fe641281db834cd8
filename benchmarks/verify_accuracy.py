"""How often verification decides right beside busy processes: rewrites with known effects.

Usage:
    python benchmarks/verify_accuracy.py [--busy N ...] [--cores C] [--budget S]
        [--only NAME ...] [--json PATH] [--corpus [N ...]] [--jobs N]
    python benchmarks/verify_accuracy.py --table RUN.json ...

Each case below is a small program and a rewrite of it, kept as text here: some with a
real gain (at least 1.3x on a quiet machine, shown by the load-0 row), some with none
(cosmetic edits, hoists of nothing, and memory-only rewrites: a small donation, a
checkpoint that XLA:CPU drops). Every case is verified (`verify_candidates`, default
options but for `--budget`) with 0, 1, 2... busy-loop processes started beside it
(`--busy`; they are pinned to this process's CPUs, `taskset -c 0,1` friendly, and always
stopped), and the script prints the decision matrix: per load, how many gains were
accepted as faster, and how many no-gain rewrites were (wrongly) accepted as faster;
with every verdict. `--corpus` also times `autoopt rewrite corpus/ --verify --no-cache`
under each load (`--corpus 2` only under load 2). `--json` writes everything; `--table`
prints the matrix of saved runs (one command per load keeps each under a time limit).

`--cores C` emulates a C-core machine on a bigger one where CPU pinning does not hold (a
sandbox that ignores `taskset`): every core but C gets a busy loop too, so load N means
`cores - C + N` busy loops (on 13 cores, `--cores 2 --busy 0 1 2` runs 11, 12 and 13).

`--jobs N` verifies N cases at once (each in a process of its own, as `--verify-jobs N`
runs files) and passes `--verify-jobs N` to the corpus run: the accuracy and the wall
time of verifying several files side by side.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from autoopt.verify import Candidate, VerifyOptions, verify_candidates
from autoopt.verify.report import Row, Verdict

ROOT = Path(__file__).resolve().parent.parent
PR_SET_PDEATHSIG = 1  # prctl option: a signal for this process when its parent dies


@dataclass(frozen=True)
class Case:
    """A program, its rewrite (text replacements), and what the rewrite really does."""

    name: str
    rule: str
    gain: bool  # a real gain of at least 1.3x on a quiet machine
    original: str
    edits: tuple[tuple[str, str], ...]
    memory_only: bool = False
    target: str | None = None  # the function the rule names, else the changed region

    @property
    def rewritten(self) -> str:
        text = self.original
        for old, new in self.edits:
            assert old in text, (self.name, old)
            text = text.replace(old, new)
        return text


CHAIN = """\
import jax
import jax.numpy as jnp


def chain(x):
    for _ in range(8):
        x = jnp.sin(x) * 0.5 + jnp.cos(x) * 0.25
    return x


def main():
    x = jnp.linspace(0.0, 1.0, 1000)
    for _ in range(150):
        x = chain(x)
    return x
"""

JIT_IN_LOOP = """\
import jax
import jax.numpy as jnp


def rollout(x):
    for _ in range(6):
        x = jnp.tanh(x) * 0.9 + 0.01
    return x


def main():
    x = jnp.linspace(-1.0, 1.0, 500)
    for _ in range(12):
        x = jax.jit(lambda y: rollout(y))(x)
    return x
"""

INLINE_BODY = """\
import jax
import jax.numpy as jnp


def main():
    x = jnp.linspace(0.0, 1.0, 800)
    v = jnp.zeros(800)
    for _ in range(150):
        a = -jnp.sin(x) - 0.1 * v
        v = v + 0.01 * a
        x = x + 0.01 * v
        x = jnp.clip(x, -10.0, 10.0)
    return x, v
"""

DONATE = """\
import functools

import jax
import jax.numpy as jnp


@jax.jit
def update(state, g):
    return state * 0.99 + g


def main():
    state = jnp.zeros(8_000_000)
    g = jnp.ones(8_000_000) * 1e-3
    for _ in range(25):
        state = update(state, g)
    return state[:10]
"""

TRANSFER = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def scaled_sum(x, k):
    return jnp.sum(x * k)


def main():
    host = np.linspace(0.0, 1.0, 4_000_000, dtype=np.float32)
    total = jnp.zeros(())
    for k in range(40):
        total = total + scaled_sum(jnp.asarray(host), k * 1.0)
    return total
"""

AT_SET = """\
import jax
import jax.numpy as jnp


def main():
    x = jnp.zeros(100_000)
    v = jnp.linspace(0.0, 1.0, 300)
    for i in range(300):
        x = x.at[i].set(v[i] * 2.0)
    return x
"""

GROW = """\
import jax
import jax.numpy as jnp


def main():
    rows = jnp.zeros((0, 16))
    x = jnp.ones(16)
    for i in range(60):
        x = jnp.sin(x) + 0.1
        rows = jnp.concatenate([rows, x[None, :]])
    return rows
"""

PER_ITEM = """\
import jax
import jax.numpy as jnp


def score(x):
    return jnp.tanh(x @ jnp.ones((32, 8))).sum() + jnp.sin(x).mean()


def main():
    xs = jnp.linspace(0.0, 1.0, 80 * 32).reshape(80, 32)
    return jnp.stack([score(x) for x in xs])
"""

RESIDUAL = """\
import jax
import jax.numpy as jnp


def block(h, w):
    for _ in range(4):
        h = h + jnp.tanh(h @ w) * 0.1
        h = h / (1.0 + jnp.abs(h).mean())
    return h


def main():
    w = jnp.eye(64) * 0.5
    h = jnp.linspace(0.0, 1.0, 64 * 64).reshape(64, 64)
    for _ in range(60):
        h = block(h, w)
    return h
"""

MATMUL = """\
import jax
import jax.numpy as jnp


def project(a, b):
    return a @ b


def main():
    a = jnp.linspace(0.0, 1.0, 700 * 700).reshape(700, 700)
    b = jnp.eye(700) * 0.5
    out = a
    for _ in range(15):
        out = project(out, b) + a
    return out
"""

SMALL_HOIST = """\
import jax
import jax.numpy as jnp


def main():
    a = jnp.linspace(0.0, 1.0, 600 * 600).reshape(600, 600)
    out = a
    for _ in range(15):
        scale = jnp.asarray([0.5, 0.25, 0.125])
        out = (out @ a) * scale[0] / 600.0
    return out
"""

SMALL_DONATE = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(state, a):
    for _ in range(4):
        state = jnp.tanh(a @ state)
    return state


def main():
    a = jnp.linspace(0.0, 1.0, 500 * 500).reshape(500, 500) / 500.0
    state = jnp.ones((500, 4))
    for _ in range(60):
        state = step(state, a)
    return state
"""

REMAT = """\
import jax
import jax.numpy as jnp


def layer(h, w):
    return jnp.tanh(h @ w)


def loss(w, x):
    h = x
    for _ in range(6):
        h = layer(h, w)
    return jnp.sum(h**2)


grad_step = jax.jit(jax.grad(loss))


def main():
    w = jnp.eye(256) * 0.9
    x = jnp.linspace(0.0, 1.0, 256 * 256).reshape(256, 256)
    for _ in range(20):
        w = w - 1e-4 * grad_step(w, x)
    return w
"""

REORDER = """\
import jax
import jax.numpy as jnp


def main():
    a = jnp.linspace(0.0, 1.0, 500 * 500).reshape(500, 500)
    b = jnp.cos(a)
    out = a
    for _ in range(15):
        out = jnp.tanh(out @ b) + a
    return out
"""

CASES = (
    Case("jit_chain", "AO101", True, CHAIN, (("def chain(x):", "@jax.jit\ndef chain(x):"),)),
    Case(
        "jit_hoisted",
        "AO102",
        True,
        JIT_IN_LOOP,
        (
            ("    for _ in range(12):", "    step = jax.jit(rollout)\n    for _ in range(12):"),
            ("jax.jit(lambda y: rollout(y))(x)", "step(x)"),
        ),
    ),
    Case(
        "jitted_body",
        "AO103",
        True,
        INLINE_BODY,
        (
            (
                "def main():",
                "@jax.jit\ndef _step(x, v):\n    a = -jnp.sin(x) - 0.1 * v\n"
                "    v = v + 0.01 * a\n    x = x + 0.01 * v\n    x = jnp.clip(x, -10.0, 10.0)\n"
                "    return x, v\n\n\ndef main():",
            ),
            (
                "        a = -jnp.sin(x) - 0.1 * v\n        v = v + 0.01 * a\n"
                "        x = x + 0.01 * v\n        x = jnp.clip(x, -10.0, 10.0)\n",
                "        x, v = _step(x, v)\n",
            ),
        ),
    ),
    Case(
        "donate_big_state",
        "AO201",
        True,
        DONATE,
        (
            (
                "@jax.jit\ndef update",
                "@functools.partial(jax.jit, donate_argnames='state')\ndef update",
            ),
        ),
    ),
    Case(
        "hoist_big_transfer",
        "AO301",
        True,
        TRANSFER,
        (
            (
                "    total = jnp.zeros(())\n",
                "    total = jnp.zeros(())\n    device = jnp.asarray(host)\n",
            ),
            ("scaled_sum(jnp.asarray(host), k * 1.0)", "scaled_sum(device, k * 1.0)"),
        ),
    ),
    Case(
        "at_set_fori",
        "AO401",
        True,
        AT_SET,
        (
            (
                "    for i in range(300):\n        x = x.at[i].set(v[i] * 2.0)\n",
                "    x = _fill(x, v)\n",
            ),
            (
                "def main():",
                "@jax.jit\ndef _fill(x, v):\n"
                "    return jax.lax.fori_loop(0, 300, lambda i, x: x.at[i].set(v[i] * 2.0), x)\n"
                "\n\ndef main():",
            ),
        ),
    ),
    Case(
        "grow_collect",
        "AO402",
        True,
        GROW,
        (
            (
                "    rows = jnp.zeros((0, 16))\n",
                "    rows = jnp.zeros((0, 16))\n    parts = [rows]\n",
            ),
            (
                "        rows = jnp.concatenate([rows, x[None, :]])\n",
                "        parts.append(x[None, :])\n",
            ),
            ("    return rows\n", "    rows = jnp.concatenate(parts)\n    return rows\n"),
        ),
    ),
    Case(
        "vmap_items",
        "AO501",
        True,
        PER_ITEM,
        (("jnp.stack([score(x) for x in xs])", "jax.vmap(score)(xs)"),),
    ),
    Case(
        "jit_residual",
        "AO101",
        True,
        RESIDUAL,
        (("def block(h, w):", "@jax.jit\ndef block(h, w):"),),
    ),
    Case(
        "rename_local",
        "manual",
        False,
        REORDER,
        (
            ("    out = a\n", "    acc = a\n"),
            ("out = jnp.tanh(out @ b)", "acc = jnp.tanh(acc @ b)"),
            ("    return out\n", "    return acc\n"),
        ),
    ),
    Case(
        "reorder_statements",
        "manual",
        False,
        REORDER,
        (("    b = jnp.cos(a)\n    out = a\n", "    out = a\n    b = jnp.cos(a)\n"),),
    ),
    Case(
        "commute_product",
        "manual",
        False,
        MATMUL,
        (("out = project(out, b) + a", "out = a + project(out, b)"),),
    ),
    Case(
        "jit_one_matmul",
        "AO101",
        False,
        MATMUL,
        (("def project(a, b):", "@jax.jit\ndef project(a, b):"),),
    ),
    Case(
        "hoist_tiny_transfer",
        "AO301",
        False,
        SMALL_HOIST,
        (
            ("    out = a\n", "    out = a\n    scale = jnp.asarray([0.5, 0.25, 0.125])\n"),
            ("        scale = jnp.asarray([0.5, 0.25, 0.125])\n", ""),
        ),
    ),
    Case(
        "donate_small_state",
        "AO201",
        False,
        SMALL_DONATE,
        (
            (
                "@jax.jit\ndef step",
                "@functools.partial(jax.jit, donate_argnames='state')\ndef step",
            ),
            ("import jax\n", "import functools\n\nimport jax\n"),
        ),
        memory_only=True,
    ),
    Case(
        "checkpoint_unrolled",
        "AO601",
        False,
        REMAT,
        (
            (
                "    return jnp.tanh(h @ w)",
                "    return jax.checkpoint(lambda h, w: jnp.tanh(h @ w))(h, w)",
            ),
        ),
        memory_only=True,
        target="grad_step",
    ),
    Case(
        "asarray_of_array",
        "AO301",
        False,
        REORDER,
        (("out = jnp.tanh(out @ b)", "out = jnp.tanh(jnp.asarray(out) @ b)"),),
    ),
)


def busy_loop_code(parent: int) -> str:
    """A process that spins until its parent (this script) is gone."""
    return (
        "import ctypes, os, signal\n"
        f"ctypes.CDLL(None).prctl({PR_SET_PDEATHSIG}, signal.SIGKILL)\n"
        f"while os.getppid() == {parent}:\n"
        "    for _ in range(1_000_000):\n"
        "        pass\n"
    )


@contextmanager
def busy(count: int) -> Iterator[list[int]]:
    """`count` spinning processes on this process's CPUs, stopped however the block ends."""
    cpus = os.sched_getaffinity(0)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", busy_loop_code(os.getpid())],
            preexec_fn=lambda: os.sched_setaffinity(0, cpus),
        )
        for _ in range(count)
    ]
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield [proc.pid for proc in procs]
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
        signal.signal(signal.SIGTERM, previous)


def _interrupt(number: int, frame: Any) -> None:
    raise KeyboardInterrupt


def verify_case(case: Case, options: VerifyOptions, folder: Path) -> dict[str, Any]:
    """Verify the case's rewrite; its verdict, views and seconds."""
    path = folder / f"{case.name}.py"
    path.write_text(case.original)
    candidate = Candidate(case.rule, case.name, 0, case.rewritten, target=case.target)
    start = time.perf_counter()
    report = verify_candidates(path, [candidate], options)
    seconds = time.perf_counter() - start
    if report.error:
        return {"case": case.name, "verdict": "error", "reason": report.error, "seconds": seconds}
    row = report.rows[0]
    return {
        "case": case.name,
        "rule": case.rule,
        "gain": case.gain,
        "memory_only": case.memory_only,
        "verdict": row.verdict.value,
        "faster": faster(row),
        "reason": row.reason,
        "program": row.program.to_json() if row.program else None,
        "function": row.function.to_json() if row.function else None,
        "seconds": seconds,
    }


def faster(row: Row) -> bool:
    """Accepted as faster: kept, with a view that measured a gain (not memory alone)."""
    views = [v for v in (row.program, row.function) if v]
    return row.verdict is Verdict.ACCEPTED and any(v.faster for v in views)


def corpus_files(part: str | None) -> list[str]:
    """`corpus/`, or part K of N (`K/N`: the K-th of N runs of its files, in name order)."""
    if not part:
        return ["corpus/"]
    number, count = (int(n) for n in part.split("/"))
    files = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "corpus").glob("*.py"))
    size = -(-len(files) // count)
    return files[(number - 1) * size : number * size]


def corpus_time(
    folder: Path, part: str | None = None, jobs: int = 1, budget: float | None = None
) -> dict[str, Any]:
    """Wall time of `autoopt rewrite corpus/ --verify --no-cache` (or of a part of the
    corpus's files, `jobs` files at once, each with `budget` seconds if given), and its
    verdicts."""
    report = folder / "corpus.json"
    files = corpus_files(part)
    command = [sys.executable, "-m", "autoopt", "rewrite", *files, "--verify", "--no-cache"]
    command += ["--no-progress", "--report", str(report), "--verify-jobs", str(jobs)]
    command += ["--verify-budget", str(budget)] if budget is not None else []
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
    seconds = time.perf_counter() - start
    verdicts: dict[str, int] = {}
    phases: dict[str, float] = {}  # wall seconds per phase, summed over the files
    per_file: dict[str, float] = {}
    if report.exists():
        for file in json.loads(report.read_text())["reports"]:
            for row in file.get("rows", []):
                verdicts[row["verdict"]] = verdicts.get(row["verdict"], 0) + 1
            timings = file.get("timings", {})
            for phase, spent in timings.items():
                phases[phase] = phases.get(phase, 0.0) + spent
            per_file[file["path"]] = sum(timings.values())
    return {
        "seconds": seconds,
        "exit": done.returncode,
        "verdicts": verdicts,
        "phases": phases,
        "per_file": per_file,
        "files": files,
        "jobs": jobs,
    }


def loops(load: int, cores: int | None) -> int:
    """Busy loops for `load` beside the benchmark, on a machine emulating `cores` cores."""
    spare = len(os.sched_getaffinity(0)) - cores if cores else 0
    return max(spare, 0) + load


def run(
    loads: list[int],
    cases: list[Case],
    options: VerifyOptions,
    corpus: list[int] | None,
    cores: int | None = None,
    part: str | None = None,
    jobs: int = 1,
    budget: float | None = None,
) -> list[dict]:
    runs = []
    for load in loads:
        count = loops(load, cores)
        with busy(count), tempfile.TemporaryDirectory(prefix="autoopt-accuracy-") as tmp:
            results = verify_cases(cases, options, Path(tmp), jobs, f"busy {count}")
            entry: dict[str, Any] = {"busy": count, "emulated_load": load, "cores": cores}
            entry |= {"load": os.getloadavg(), "cases": results, "jobs": jobs}
            if corpus is not None and (not corpus or load in corpus):
                entry["corpus"] = corpus_time(Path(tmp), part, jobs, budget)
                print(f"busy {count}: corpus {entry['corpus']}", file=sys.stderr, flush=True)
        runs.append(entry)
    return runs


def verify_cases(
    cases: list[Case], options: VerifyOptions, folder: Path, jobs: int, label: str
) -> list[dict[str, Any]]:
    """Every case's result, in the cases' order: one after another, or `jobs` at once."""
    work = [(case, options, folder) for case in cases]
    if jobs == 1:
        results = [verify_case(*args) for args in work]
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.starmap(verify_case, work, chunksize=1)
    for result in results:
        print(f"{label}: {line(result)}", file=sys.stderr, flush=True)
    return results


def line(result: dict[str, Any]) -> str:
    views = [
        f"{key} {view['speedup']:.2f}x [{view['low']:.2f}-{view['high']:.2f}] n={view['samples']}"
        for key in ("function", "program")
        if (view := result.get(key))
    ]
    kind = "gain" if result.get("gain") else "none"
    seconds = f"{result['seconds']:.0f} s"
    return f"{result['case']} ({kind}): {result['verdict']}, {', '.join(views)}, {seconds}"


def matrix(runs: list[dict]) -> str:
    """The decision matrix, one row per load, and every case's verdict per load."""
    out = [
        "| busy loops | like | load avg | gains accepted as faster | gains inconclusive "
        "| no-gain accepted as faster | no-gain inconclusive | seconds | corpus --verify s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for entry in runs:
        gains = [c for c in entry["cases"] if c.get("gain")]
        nones = [c for c in entry["cases"] if not c.get("gain")]
        corpus = entry.get("corpus")
        corpus_s = f"{corpus['seconds']:.0f}" if corpus else "-"
        out.append(
            f"| {entry['busy']} | {_like(entry)} | {entry['load'][0]:.1f} "
            f"| {_count(gains, 'faster')} | {_verdicts(gains, 'inconclusive')} "
            f"| {_count(nones, 'faster')} | {_verdicts(nones, 'inconclusive')} "
            f"| {sum(c['seconds'] for c in entry['cases']):.0f} "
            f"| {corpus_s} |"
        )
    out += ["", "Verdicts, with the speedup of the region (r) and of the whole program (p):", ""]
    out += ["| case | effect | " + " | ".join(f"busy {e['busy']}" for e in runs) + " |"]
    out.append("|---|---|" + "---|" * len(runs))
    for i, case in enumerate(runs[0]["cases"]):
        effect = (
            "gain" if case.get("gain") else ("none, memory" if case.get("memory_only") else "none")
        )
        cells = [_cell(entry["cases"][i]) for entry in runs]
        out.append(f"| {case['case']} | {effect} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def _like(entry: dict) -> str:
    """What the load emulates: e.g. `2 cores, 1 busy` (an entry without `--cores`: `-`)."""
    jobs = f", {entry['jobs']} at once" if entry.get("jobs", 1) > 1 else ""
    if not entry.get("cores"):
        return "-" + jobs
    return f"{entry['cores']} cores, {entry['emulated_load']} busy{jobs}"


def _count(cases: list[dict], key: str) -> str:
    return f"{sum(bool(c.get(key)) for c in cases)}/{len(cases)}"


def _verdicts(cases: list[dict], verdict: str) -> str:
    return f"{sum(c['verdict'].startswith(verdict) for c in cases)}/{len(cases)}"


def _cell(case: dict) -> str:
    """The verdict, with the region's and the whole program's speedups (`r`, `p`)."""
    views = [
        f"{label} {view['speedup']:.2f}x"
        for label, view in (("r", case.get("function")), ("p", case.get("program")))
        if view
    ]
    return f"{case['verdict']} ({', '.join(views)})" if views else case["verdict"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, nargs="+", default=[0, 1, 2], help="busy loops")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per case (20)")
    parser.add_argument("--only", nargs="+", help="case names")
    parser.add_argument("--json", type=Path, help="write the runs here")
    parser.add_argument("--cores", type=int, help="emulate this many cores: busy loops on the rest")
    parser.add_argument(
        "--corpus", type=int, nargs="*", help="also time the corpus --verify (at these loads)"
    )
    parser.add_argument("--corpus-part", metavar="K/N", help="time part K of N of the corpus")
    parser.add_argument("--no-cases", action="store_true", help="only the corpus (--corpus)")
    parser.add_argument("--table", type=Path, nargs="+", help="print the matrix of saved runs")
    parser.add_argument("--jobs", type=int, default=1, help="cases (and corpus files) at once")
    parser.add_argument("--corpus-budget", type=float, help="--verify-budget of the corpus run")
    args = parser.parse_args()
    if args.table:
        print(matrix([run for path in args.table for run in json.loads(path.read_text())]))
        return
    cases = [c for c in CASES if not args.no_cases and (not args.only or c.name in args.only)]
    options = replace(VerifyOptions(), budget_s=args.budget)
    runs = run(
        args.busy,
        cases,
        options,
        args.corpus,
        args.cores,
        args.corpus_part,
        args.jobs,
        args.corpus_budget,
    )
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))
    print(matrix(runs))


if __name__ == "__main__":
    main()
