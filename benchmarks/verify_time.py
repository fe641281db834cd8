"""How long `verify_file` takes per corpus file with and without the compilation cache.

Usage:
    python benchmarks/verify_time.py [--corpus DIR] [--repeats N] [--on-first] NAME [NAME ...]
    python benchmarks/verify_time.py --samples N NAME [NAME ...]

Each file is verified with the file's compilation cache off (as before issue 28's cache)
and on, alternately (off first, then on first, by file and by repeat), in one process,
so both see the same load. Prints, per file and run: seconds, where they went (the
capturing baseline, the entry runs, the steady-state process), the load average, and
every rewrite's verdict in both modes; then the ratio of the medians per file.
With --samples N, only entry runs of each original: N without the cache and N served by
it (charged what compiling cost), alternately, and their CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from autoopt.config import Settings
from autoopt.verify import VerifyOptions, VerifyReport, verify_file
from autoopt.verify.runner import run_worker

ROOT = Path(__file__).resolve().parent.parent
PHASES = (("running the original", "baseline"), ("run ", "entry runs"), ("steady", "steady state"))


class Phases:
    """Seconds between progress messages, summed by the phase each message starts."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.runs = 0  # entry runs, the baseline not counted
        self.phase, self.since = "analysis", time.perf_counter()

    def __call__(self, message: str) -> None:
        text = message.split(": ", 1)[-1] if message.startswith(("/", ".")) else message
        self._close()
        self.runs += text.startswith("run ")
        self.phase = next((name for start, name in PHASES if text.startswith(start)), "other")

    def _close(self) -> None:
        now = time.perf_counter()
        self.seconds[self.phase] = self.seconds.get(self.phase, 0.0) + now - self.since
        self.since = now

    def done(self) -> None:
        self._close()


def verify(path: Path, cache: bool) -> tuple[float, Phases, VerifyReport]:
    """One verification of `path`: its seconds, where they went, and the report."""
    options = replace(VerifyOptions(), compilation_cache=cache)
    phases = Phases()
    start = time.perf_counter()
    report = verify_file(path, settings=Settings(), options=options, progress=phases)
    seconds = time.perf_counter() - start
    phases.done()
    return seconds, phases, report


def verdicts(report: VerifyReport) -> str:
    rows = [f"{row.rule}:{row.verdict.value} ({row.reason})" for row in report.rows]
    if report.combined is not None:
        rows.append(f"together:{report.combined.verdict.value}")
    return " ".join(rows) or report.error or "no rewrites"


def entry_cpu_s(path: Path, out: Path, cache: Path | None) -> float:
    """CPU seconds of one entry run of `path`, with the file's cache at `cache` or none."""
    spec = {
        "mode": "run",
        "program": str(path),
        "module": path.stem,
        "search_path": [str(path.parent)],
        "entry": "main",
        "instrument": True,
        "compilation_cache": str(cache) if cache else None,
    }
    run = run_worker(spec, out, timeout=300, cwd=path.parent)
    return float(run.result["cpu_s"])


def charged_against_uncached(path: Path, count: int) -> str:
    """Medians of `count` uncached and `count` cached-and-charged entry runs, alternately."""
    with tempfile.TemporaryDirectory() as work:
        cache, runs = Path(work) / "cache", iter(range(1 << 30))
        entry_cpu_s(path, Path(work) / "fill", cache)  # compiles into the cache
        seconds: dict[bool, list[float]] = {False: [], True: []}
        for number in range(count):
            for cached in (True, False) if number % 2 else (False, True):
                out = Path(work) / str(next(runs))
                seconds[cached].append(entry_cpu_s(path, out, cache if cached else None))
    on, off = statistics.median(seconds[True]), statistics.median(seconds[False])
    return (
        f"| {path.stem} | {off:.2f} ({min(seconds[False]):.2f}-{max(seconds[False]):.2f}) |"
        f" {on:.2f} ({min(seconds[True]):.2f}-{max(seconds[True]):.2f}) | {on / off:.3f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--on-first", action="store_true", help="the first file: cache on first")
    parser.add_argument("--samples", type=int, help="only entry runs: uncached against charged")
    args = parser.parse_args()
    if args.samples:
        print("| file | uncached CPU s | cached, charged CPU s | ratio |\n|---|---|---|---|")
        for name in args.names:
            print(charged_against_uncached(args.corpus / f"{name}.py", args.samples), flush=True)
        return
    seconds: dict[tuple[str, bool], list[float]] = {}
    print("| file | cache | s | baseline | entry runs (count) | steady state | load | verdicts |")
    print("|---|---|---|---|---|---|---|---|")
    for repeat in range(args.repeats):
        for number, name in enumerate(args.names):
            flip = (repeat + number + args.on_first) % 2
            for cache in (True, False) if flip else (False, True):
                total, phases, report = verify(args.corpus / f"{name}.py", cache)
                seconds.setdefault((name, cache), []).append(total)
                parts = [f"{phases.seconds.get(p, 0.0):.1f}" for _, p in PHASES]
                parts[1] += f" ({phases.runs})"
                load = os.getloadavg()[0]
                print(
                    f"| {name} | {'on' if cache else 'off'} | {total:.1f} | {' | '.join(parts)}"
                    f" | {load:.1f} | {verdicts(report)} |",
                    flush=True,
                )
    print("\n| file | off (median s) | on (median s) | on/off |\n|---|---|---|---|")
    for name in args.names:
        off = statistics.median(seconds[name, False])
        on = statistics.median(seconds[name, True])
        print(f"| {name} | {off:.1f} | {on:.1f} | {on / off:.2f} |")


if __name__ == "__main__":
    main()
