"""Corpus verification on Ray with one slot and with two, and a second run from the cache.

Usage:
    python benchmarks/verify_scaling.py [--corpus DIR] [--only NAME ...] [--rounds N]
        [--scaling-only]
    python benchmarks/verify_scaling.py --cli-rerun [--corpus DIR]

What `autoopt rewrite corpus/ --verify --executor ray` does, timed in this process:
1. a local Ray instance with one CPU (one slot), an empty verification cache;
2. a local Ray instance with two CPUs (two slots), another empty cache;
3. the same command again on the cache of pass 2 (every decided file is skipped);
4. the local executor on that cache (verdicts are shared across executors and runs).
With `--rounds N`, passes 1 and 2 are repeated N times, alternating which goes first
(ABBA), so that the one-slot and two-slot figures share the machine's conditions; the
ratio is that of their summed wall times. Each pass prints its wall time; the one-slot
passes also give each job's time (the slot runs one job after another), which the
cluster estimate in docs/benchmarks/verification.md is built from. Prints a Markdown section.

`--cli-rerun` times the command itself instead: `autoopt rewrite CORPUS --verify` (local
executor) twice, each in a fresh process, on one empty cache folder (`AUTOOPT_CACHE_DIR`),
from a snapshot of autoopt, the corpus and `pyproject.toml` taken at the start (edits to
the tree during the run change neither run); prints both wall times, the files each read
from the cache, the load average around each run, and their ratio.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import ray
from rich.console import Console

from autoopt.config import Settings
from autoopt.verify import VerifyOptions, VerifyReport
from autoopt.verify.commands import verify_paths
from autoopt.workspace.batch import collect

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Pass:
    """One verification of the corpus: wall time, and when each file finished."""

    label: str
    seconds: float = 0.0
    finished: list[tuple[str, float]] = field(default_factory=list)
    cached: int = 0
    errors: int = 0

    def job_seconds(self) -> list[float]:
        """Each job's time, where one slot ran them one after another."""
        ends = [0.0, *(at for _, at in self.finished)]
        return [b - a for a, b in itertools.pairwise(ends)]


def changed_files(corpus: Path, only: list[str]) -> list[str]:
    """The files `rewrite corpus/` would change (analysis only; no verification)."""
    batch = collect([str(corpus)], Settings(), cache=False)
    paths = [o.display for o in batch.changed]
    return [p for p in paths if not only or Path(p).stem in only]


def verify_pass(label: str, paths: list[str], executor: str, cache_dir: Path) -> Pass:
    """Verify `paths` with `executor`, the cache in `cache_dir`; time it."""
    os.environ["AUTOOPT_CACHE_DIR"] = str(cache_dir)
    settings = Settings(executor=executor)
    result = Pass(label)
    quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115  (closed with the process)
    start = time.perf_counter()
    for _path, outcome in verify_paths(paths, settings, VerifyOptions(), quiet, progress=False):
        at = time.perf_counter() - start
        result.finished.append((_path, at))
        result.cached += isinstance(outcome, VerifyReport) and outcome.cached
        result.errors += not isinstance(outcome, VerifyReport) or bool(outcome.error)
        print(f"  {label}: {_path} at {at:.1f} s", flush=True)
    result.seconds = time.perf_counter() - start
    return result


def on_ray(cpus: int, label: str, paths: list[str], cache_dir: Path) -> Pass:
    ray.init(num_cpus=cpus, include_dashboard=False, logging_level="warning", log_to_driver=False)
    try:
        return verify_pass(label, paths, "ray", cache_dir)
    finally:
        ray.shutdown()


def markdown(passes: list[Pass], files: int, first: Pass) -> str:
    out = [
        "| pass | files | cached | errors | wall time |",
        "|---|---|---|---|---|",
        *(f"| {p.label} | {files} | {p.cached} | {p.errors} | {p.seconds:.1f} s |" for p in passes),
    ]
    ones = [p for p in passes if p.label.startswith("ray, 1 slot")]
    twos = [p for p in passes if p.label.startswith("ray, 2 slots") and not p.cached]
    if ones and twos:
        ratio = sum(p.seconds for p in ones) / sum(p.seconds for p in twos)
        out.append(f"\nOne slot / two slots: {ratio:.2f}x.")
        jobs = sorted(t for p in ones for t in p.job_seconds())
        out.append(
            f"Job times with one slot: median {statistics.median(jobs):.1f} s, mean"
            f" {statistics.mean(jobs):.1f} s, longest {jobs[-1]:.1f} s ({len(jobs)} jobs)."
        )
    for p in passes:
        if p.cached:
            out.append(f"{p.label}: {first.seconds / p.seconds:.1f}x faster than {first.label}.")
    return "\n".join(out)


@dataclass
class CliRun:
    """One `autoopt rewrite CORPUS --verify` process: wall time, cached files, load."""

    label: str
    seconds: float
    files: int
    cached: int
    load: tuple[float, float]  # one-minute load average before and after
    exit_code: int


def cli_run(label: str, corpus: Path, snapshot: Path, cache_dir: Path) -> CliRun:
    """Run the CLI on `corpus` from `snapshot` with the cache in `cache_dir`; time it."""
    env = {**os.environ, "AUTOOPT_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(snapshot)}
    env["COLUMNS"] = "400"  # one line per table title and summary row
    command = [sys.executable, "-m", "autoopt", "rewrite", str(corpus), "--verify"]
    before = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run([*command, "--no-progress"], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    files = done.stderr.count("(entry ")
    cached = done.stderr.count("cached: verdicts of an earlier run")
    print(f"  {label}: {seconds:.1f} s, {cached} of {files} files cached", flush=True)
    return CliRun(label, seconds, files, cached, (before, os.getloadavg()[0]), done.returncode)


def cli_rerun(corpus: Path) -> str:
    """The first and the second `rewrite CORPUS --verify` on one fresh cache, as Markdown."""
    with tempfile.TemporaryDirectory(prefix="autoopt-rerun-") as folder:
        snapshot, project = Path(folder) / "code", Path(folder) / "project"
        shutil.copytree(ROOT / "autoopt", snapshot / "autoopt")
        shutil.copytree(corpus, project / corpus.name, ignore=shutil.ignore_patterns("__py*"))
        shutil.copy(ROOT / "pyproject.toml", project)
        runs = [
            cli_run(label, project / corpus.name, snapshot, Path(folder) / "cache")
            for label in ("first run", "second run")
        ]
    out = [
        "| run | files verified | from the cache | exit | load before -> after | wall time |",
        "|---|---|---|---|---|---|",
        *(
            f"| {r.label} | {r.files} | {r.cached} | {r.exit_code} |"
            f" {r.load[0]:.2f} -> {r.load[1]:.2f} | {r.seconds:.1f} s |"
            for r in runs
        ),
        f"\nSecond run: {runs[0].seconds / runs[1].seconds:.1f}x faster than the first.",
    ]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT / "corpus"))
    parser.add_argument("--only", nargs="*", default=[], help="file stems to verify")
    parser.add_argument("--rounds", type=int, default=1, help="one-slot/two-slot pairs")
    parser.add_argument("--scaling-only", action="store_true", help="no cached passes")
    parser.add_argument("--cli-rerun", action="store_true", help="the CLI twice, one cache")
    args = parser.parse_args()
    if args.cli_rerun:
        print(cli_rerun(Path(args.corpus)))
        return
    paths = changed_files(Path(args.corpus), args.only)
    print(f"{len(paths)} files with rewrites", flush=True)
    passes = []
    with tempfile.TemporaryDirectory(prefix="autoopt-scaling-") as folder:
        for number in range(args.rounds):
            for cpus in (1, 2) if number % 2 == 0 else (2, 1):
                label = f"ray, {cpus} slot{'s' * (cpus > 1)}, round {number + 1}"
                passes.append(on_ray(cpus, label, paths, Path(folder) / label))
        first = passes[-1]  # the cached passes read its cache
        if not args.scaling_only:
            cache = Path(folder) / first.label
            passes.append(on_ray(2, "ray, 2 slots, cached", paths, cache))
            passes.append(verify_pass("local, cached", paths, "local", cache))
    print(markdown(passes, len(paths), first))


if __name__ == "__main__":
    main()
