"""Verify every corpus program and record the results in docs/benchmarks/verification.md.

Usage:
    python benchmarks/verify_corpus.py [--corpus DIR] [--out FILE] [--only NAME ...]
        [--repeats N] [--rounds N] [--timeout S] [--side-by-side [--sbs-repeats N]]
        [--default-rewrite]

Every `corpus/*.py` except `*_expert.py` goes through `autoopt.verify.verify_file`
(with unsafe fixes for the programs in UNSAFE_ONLY).
The section written to FILE (one per device, between markers, so CPU and GPU
runs sit side by side) has the device, the JAX version, one row per program and
one row per rewrite. With --side-by-side, each program that has a `<name>_expert.py`
is timed as original, autoopt (all accepted rewrites) and expert version, in fresh
processes, interleaved, medians; the table shows each speedup and autoopt's
speedup as a fraction of the expert's. Where the accepted rewrites include AO601,
the compiled temp memory of the same jitted function in all three versions is
measured as the verifier does (captured arguments, `memory_analysis()`) and shown
with autoopt's saving as a fraction of the expert's. With --default-rewrite, nothing is
verified: autoopt's version is what `rewrite --write` applies (issue 26's measure).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import AutooptError
from autoopt.verify import Candidate, VerifyOptions, VerifyReport, verify_candidates, verify_file
from autoopt.verify.compare import compare_trees
from autoopt.verify.decide import REMAT, human_bytes
from autoopt.verify.render import error, kept_row, memory, pair, speed
from autoopt.verify.runner import run_worker
from autoopt.verify.trees import load_tree

ROOT = Path(__file__).resolve().parent.parent
#: Programs whose only rewrite is unsafe (AO702), verified with unsafe fixes (as in
#: tests/test_corpus.py).
UNSAFE_ONLY = {"shared_gpu_workers"}


@dataclass
class Program:
    """One corpus program's verification and how long it took."""

    path: Path
    report: VerifyReport
    seconds: float


@dataclass
class SideBySide:
    """Median whole-program seconds of the three versions, and whether they agree."""

    name: str
    original: float
    autoopt: float
    expert: float
    agree: str
    temp: tuple[int, int, int] | None = None  # AO601: compiled temp of original, autoopt, expert

    @property
    def autoopt_speedup(self) -> float:
        return self.original / self.autoopt

    @property
    def expert_speedup(self) -> float:
        return self.original / self.expert


def verify_program(path: Path, options: VerifyOptions) -> Program:
    start = time.perf_counter()
    settings = Settings(unsafe_fixes=path.stem in UNSAFE_ONLY)
    try:
        report = verify_file(path, settings=settings, options=options)
    except AutooptError as exc:
        report = VerifyReport(str(path), options.entry or "main", error=exc.message)
    print(
        f"{path.name}: {len(report.rows)} rewrite(s), {len(report.accepted)} accepted", flush=True
    )
    return Program(path, report, time.perf_counter() - start)


def default_program(path: Path) -> Program:
    """The program with what `rewrite --write` applies (no verification): the version a
    user who does not pass `--verify` runs."""
    settings = Settings(unsafe_fixes=path.stem in UNSAFE_ONLY)
    source = path.read_text()
    result = optimize_source(source, path=str(path), settings=settings)
    report = VerifyReport(str(path), "main", accepted_source=result.new_source)
    print(f"{path.name}: {len(result.applied)} fix(es) applied", flush=True)
    return Program(path, report, 0.0)


def time_versions(program: Program, repeats: int, timeout: float) -> SideBySide | None:
    """Original, autoopt and expert versions, alternating fresh processes."""
    expert = program.path.with_name(f"{program.path.stem}_expert.py")
    if not expert.exists() or program.report.error:
        return None
    source = program.path.read_text()
    kept = program.report.accepted_source or source
    with tempfile.TemporaryDirectory(prefix="autoopt-sbs-") as work:
        rewritten = Path(work) / "autoopt" / program.path.name
        rewritten.parent.mkdir()
        rewritten.write_text(kept)
        versions = {"original": program.path, "autoopt": rewritten, "expert": expert}
        if kept == source:  # nothing accepted: autoopt's version is the original
            del versions["autoopt"]
        runs = {name: [] for name in versions}
        for repeat in range(repeats):
            names = list(versions) if repeat % 2 == 0 else list(reversed(versions))
            for name in names:
                out = Path(work) / f"{name}-{repeat}"
                runs[name].append(_run(versions[name], program.path.parent, out, timeout))
    runs.setdefault("autoopt", runs["original"])
    result = _summarise(program.path.stem, runs)
    if result:
        result.temp = remat_temps(program, expert, timeout)
    return result


def remat_temps(program: Program, expert: Path, timeout: float) -> tuple[int, int, int] | None:
    """Compiled temp bytes of the jitted function an accepted AO601 rewrite was measured on,
    in the original, autoopt's and the expert's version: both verified as rewrites at once
    (one capturing baseline, one replay worker), so the figures come from the same
    arguments and the same code path as the verifier's."""
    row = next((r for r in program.report.accepted if r.rule == REMAT and r.target), None)
    if row is None:
        return None
    target = row.target
    versions = [
        Candidate(REMAT, "autoopt", 0, program.report.accepted_source, target=target),
        Candidate(REMAT, "expert", 0, expert.read_text(), target=target),
    ]
    options = VerifyOptions(timeout=timeout, repeats=1, rounds=3, bench_budget_s=2.0)
    report = verify_candidates(program.path, versions, options)
    memories = [r.memory for r in report.rows]
    if report.error or not all(m.compiled_before and m.compiled_after for m in memories):
        return None
    autoopt, expert_memory = memories
    return (
        autoopt.compiled_before["temp"],
        autoopt.compiled_after["temp"],
        expert_memory.compiled_after["temp"],
    )


def _run(path: Path, home: Path, out: Path, timeout: float) -> tuple[float, object] | None:
    spec = {
        "mode": "run",
        "program": str(path),
        "module": path.stem,
        "search_path": [str(path.parent), str(home)],
        "entry": None,
    }
    run = run_worker(spec, out, timeout=timeout, cwd=home)
    return (run.result["total_s"], load_tree(out, "outputs")) if run.ok else None


def _summarise(name: str, runs: dict[str, list]) -> SideBySide | None:
    if any(r is None for rs in runs.values() for r in rs):
        return None
    median = {k: statistics.median(t for t, _ in v) for k, v in runs.items()}
    reference = runs["original"][0][1]
    verdicts = []
    for version in ("autoopt", "expert"):
        result = compare_trees(reference, runs[version][0][1])
        verdicts.append(f"{version}: {'same' if result.equal else 'differs'}")
    return SideBySide(
        name, median["original"], median["autoopt"], median["expert"], ", ".join(verdicts)
    )


# ---------------------------------------------------------------- markdown


def section(programs: list[Program], versions: list[SideBySide], note: str) -> str:
    reports = [p.report for p in programs]
    known = next((r for r in reports if r.device), None)
    device = known.device if known else "unknown device"
    jax = f"jax {known.jax_version}, jaxlib {known.jaxlib_version}" if known else ""
    lines = [f"## Verified rewrites on the corpus: {device}", "", f"{device}, {jax}. {note}", ""]
    lines += [*_program_table(programs), "", *_rewrite_table(reports)]
    if versions:
        lines += ["", *_versions_table(versions)]
    return "\n".join(lines) + "\n"


def _program_table(programs: list[Program]) -> list[str]:
    lines = [
        "| program | rewrites | accepted | kept: program speedup | best function speedup"
        " | verify s |",
        "|---|---|---|---|---|---|",
    ]
    for program in programs:
        report = program.report
        kept = kept_row(report)
        functions = [row.function for row in report.accepted if row.function]
        best = max(functions, key=lambda view: view.speedup, default=None)
        accepted = "error: " + report.error if report.error else str(len(report.accepted))
        lines.append(
            f"| {program.path.name} | {len(report.rows)} | {_md(accepted)} |"
            f" {speed(kept.program) if kept else '-'} | {speed(best)} | {program.seconds:.0f} |"
        )
    return lines


def _rewrite_table(reports: list[VerifyReport]) -> list[str]:
    lines = [
        "| program | rule | line | verdict | function speedup | program speedup | max error"
        " | memory | H2D transfers | host syncs | reason |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        rows = [*report.rows, *([report.combined] if report.combined else [])]
        for row in rows:
            cells = [
                Path(report.path).name,
                row.rule,
                str(row.line or ""),
                row.verdict.value,
                speed(row.function),
                speed(row.program),
                error(row),
                memory(row),
                pair(row.transfers_before, row.transfers_after),
                pair(row.syncs_before, row.syncs_after),
                row.reason[:160],
            ]
            lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
    return lines


def _versions_table(versions: list[SideBySide]) -> list[str]:
    lines = [
        "Side by side (fresh processes, interleaved, medians; fraction = autoopt speedup /"
        " expert speedup):",
        "",
        "| program | original s | autoopt | expert | fraction of expert | outputs"
        " | AO601 compiled temp: original → autoopt, expert (fraction of expert's saving) |",
        "|---|---|---|---|---|---|---|",
    ]
    for v in versions:
        fraction = v.autoopt_speedup / v.expert_speedup
        lines.append(
            f"| {v.name} | {v.original:.2f} | {v.autoopt_speedup:.2f}x | {v.expert_speedup:.2f}x |"
            f" {fraction:.0%} | {v.agree} | {_temp_cell(v.temp)} |"
        )
    return lines


def _temp_cell(temp: tuple[int, int, int] | None) -> str:
    """E.g. `22.3 MiB → 5.1 MiB (4.3x), expert 5.1 MiB (4.3x) (100%)`."""
    if temp is None:
        return "-"
    original, autoopt, expert = temp
    saved, expert_saved = original - autoopt, original - expert
    fraction = f"{saved / expert_saved:.0%}" if expert_saved > 0 else "expert saves nothing"
    return (
        f"{human_bytes(original)} → {human_bytes(autoopt)} ({original / max(autoopt, 1):.1f}x),"
        f" expert {human_bytes(expert)} ({original / max(expert, 1):.1f}x) ({fraction})"
    )


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def update_markdown(path: Path, key: str, body: str) -> None:
    """Replace this device's section of `path` (between markers), or append it."""
    start, end = f"<!-- verify-corpus:{key}:start -->", f"<!-- verify-corpus:{key}:end -->"
    block = f"{start}\n{body}{end}\n"
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end) + r"\n?", re.DOTALL)
    text = (
        pattern.sub(lambda _: block, text)
        if pattern.search(text)
        else text.rstrip() + "\n\n" + block
    )
    path.write_text(text)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "benchmarks" / "verification.md"
    )
    parser.add_argument("--only", nargs="*", help="program names (without .py) to run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--side-by-side", action="store_true")
    parser.add_argument("--sbs-repeats", type=int, default=5)
    parser.add_argument(
        "--default-rewrite",
        action="store_true",
        help="time the default rewrite (`rewrite --write`) instead of verifying",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    options = replace(
        VerifyOptions(), repeats=args.repeats, rounds=args.rounds, timeout=args.timeout
    )
    corpus = args.corpus.resolve()  # the versions run with the corpus as their directory
    paths = sorted(p for p in corpus.glob("*.py") if not p.stem.endswith("_expert"))
    if args.only:
        paths = [p for p in paths if p.stem in args.only]
    start = time.perf_counter()
    programs = [
        default_program(path) if args.default_rewrite else verify_program(path, options)
        for path in paths
    ]
    versions = []
    if args.side_by_side:
        for program in programs:
            result = time_versions(program, args.sbs_repeats, args.timeout)
            if result:
                versions.append(result)
                speedups = (
                    f"autoopt {result.autoopt_speedup:.2f}x, expert {result.expert_speedup:.2f}x"
                )
                if result.temp:
                    speedups += f"; compiled temp {_temp_cell(result.temp)}"
                print(f"{result.name}: {speedups}", flush=True)
    total = time.perf_counter() - start
    note = (
        f"`python benchmarks/verify_corpus.py{' --side-by-side' if args.side_by_side else ''}`,"
        f" repeats {args.repeats}, rounds {args.rounds}; {len(programs)} programs in {total:.0f} s."
    )
    body = section(programs, versions, note)
    device = next((p.report.device for p in programs if p.report.device), "unknown")
    update_markdown(args.out, re.sub(r"\W+", "-", device.lower()).strip("-"), body)
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
