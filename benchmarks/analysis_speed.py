"""Lines per second of `autoopt check` (all rules) against a bare LibCST parse.

Usage: python benchmarks/analysis_speed.py [TREE] [--limit N] [--repeat N] [--command]

TREE defaults to the installed jax package (`corpus` for the shipped programs).
In process (the default): one process, files read once up front; each round
parses every file, then checks every file (the API's `check_source`), in CPU
seconds. With `--command`: each round runs, as fresh processes on the same files,
a bare parse (`python -c`, LibCST) and `autoopt check --no-cache --jobs 1` of this
work tree, start-up included, in CPU (user + sys) and wall seconds. Either way the
ratio is check / parse, from the medians (targets: at most 2x on the jax package,
issue 13; at most 3x on the corpus, issue 11).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import libcst as cst

from autoopt.api import check_source
from autoopt.model import AutooptError

ROOT = Path(__file__).resolve().parents[1]
PARSE = """import sys, libcst
for path in sys.argv[1:]:
    try:
        libcst.parse_module(open(path, encoding="utf-8").read())
    except libcst.ParserSyntaxError:
        pass
"""


def _default_tree() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("jax")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent


def load(tree: Path, limit: int | None) -> list[tuple[str, str]]:
    files = sorted(tree.rglob("*.py"))[:limit]
    sources = []
    for path in files:
        try:
            sources.append((str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return sources


def timed(fn: Callable[[str, str], object], sources: Sequence[tuple[str, str]]) -> float:
    start = time.process_time()
    for path, code in sources:
        with contextlib.suppress(AutooptError, cst.ParserSyntaxError):
            fn(path, code)
    return time.process_time() - start


def in_process(sources: Sequence[tuple[str, str]], repeat: int) -> dict[str, list[float]]:
    """CPU seconds per round of parsing, then checking, every file in this process."""
    samples: dict[str, list[float]] = {"parse": [], "check": []}
    for _ in range(repeat):
        samples["parse"].append(timed(lambda p, c: cst.parse_module(c), sources))
        samples["check"].append(timed(lambda p, c: check_source(c, path=p), sources))
    return samples


def run_timed(command: list[str]) -> tuple[float, float]:
    """CPU (user + sys) and wall seconds of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(command, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1, 2):  # 2: a file autoopt cannot parse is an error
        raise SystemExit(f"{command[:4]} failed:\n{done.stderr.decode()[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def as_commands(files: Sequence[str], repeat: int) -> dict[str, list[float]]:
    """CPU and wall seconds per round of a bare-parse process and an `autoopt check`
    process over `files`, the two interleaved."""
    check = ["check", "--no-cache", "--jobs", "1", "--no-progress", "--format", "json"]
    commands = {
        "parse": [sys.executable, "-c", PARSE, *files],
        "check": [sys.executable, "-m", "autoopt", *check, *files],
    }
    samples: dict[str, list[float]] = {f"{k} {u}": [] for k in commands for u in ("cpu", "wall")}
    for _ in range(repeat):
        for label, command in commands.items():
            cpu, wall = run_timed(command)
            samples[f"{label} cpu"].append(cpu)
            samples[f"{label} wall"].append(wall)
    return samples


def report(samples: dict[str, list[float]], lines: int) -> list[str]:
    """A row per phase (median seconds, lines per second) and the check / parse ratios."""
    medians = {label: statistics.median(values) for label, values in samples.items()}
    rows = [f"{'phase':<14}{'seconds':>10}{'lines/s':>12}"]
    rows += [f"{label:<14}{s:>10.2f}{lines / s:>12.0f}" for label, s in medians.items()]
    for unit in ("", " cpu", " wall"):
        if f"check{unit}" in medians:
            ratio = medians[f"check{unit}"] / medians[f"parse{unit}"]
            rows.append(f"ratio check/parse{unit}: {ratio:.2f}x")
    rows.append("targets: at most 2x on the jax package (issue 13), 3x on the corpus (issue 11)")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tree", nargs="?", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--command", action="store_true", help="time whole processes, start-up included"
    )
    args = parser.parse_args(argv)
    tree = args.tree or _default_tree()
    sources = load(tree, args.limit)
    lines = sum(code.count("\n") for _, code in sources)
    if args.command:
        samples = as_commands([path for path, _ in sources], args.repeat)
        how = "whole processes, CPU and wall seconds"
    else:
        samples = in_process(sources, args.repeat)
        how = "one process, CPU seconds"
    print(f"tree: {tree} ({len(sources)} files, {lines} lines), {how}, median of {args.repeat}")
    print("\n".join(report(samples, lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
