"""Lines per second of `autoopt check` over a real tree: --jobs 1, --jobs 2, warm cache.

Usage: python benchmarks/batch_speed.py [TREE ...] [--json]
TREE defaults to four folders of the installed jax package (numpy, lax, scipy,
nn: about 80k lines). Each run is the CLI in a fresh process, so start-up is
included. The cold runs ignore the cache (`--jobs 1 --no-cache`) or start from
an empty one (`--jobs 2`, which fills it); the warm run re-checks the same tree
with that cache. The runs use a copy of the autoopt package taken at the start,
so concurrent edits to the source tree cannot change the code (or the cache
key) between runs. Wall and CPU seconds (user + sys of the child processes) are
both reported: on a shared machine the CPU figures are the steadier.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

JAX_PARTS = ("_src/numpy", "_src/lax", "_src/scipy", "_src/nn")


@dataclass
class Measure:
    """One CLI run: what it was, its wall and CPU time, and the exit code."""

    name: str
    wall: float
    cpu: float
    code: int


def default_trees() -> list[Path]:
    spec = importlib.util.find_spec("jax")
    assert spec is not None and spec.origin is not None
    root = Path(spec.origin).parent
    return [root / part for part in JAX_PARTS]


def count_lines(trees: list[Path]) -> tuple[int, int]:
    """(files, lines) of the .py/.pyi files under `trees`."""
    files = [p for t in trees for p in t.rglob("*") if p.suffix in (".py", ".pyi")]
    return len(files), sum(p.read_bytes().count(b"\n") for p in files)


def timed(name: str, args: list[str], env: dict[str, str], cwd: Path) -> Measure:
    """Run `python -m autoopt check ARGS` in `cwd`, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-m", "autoopt", "check", *args, "--format", "json"]
    done = subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Measure(name, wall, cpu, done.returncode)


def run_all(trees: list[Path]) -> list[Measure]:
    """The three runs, against a frozen copy of autoopt (edits elsewhere can't bust the cache)."""
    paths = [str(t) for t in trees]
    with tempfile.TemporaryDirectory() as scratch:
        package = Path(__file__).resolve().parents[1] / "autoopt"
        shutil.copytree(package, Path(scratch) / "code" / "autoopt")
        env = {
            **os.environ,
            "AUTOOPT_CACHE_DIR": str(Path(scratch) / "cache"),
            "PYTHONPATH": str(Path(scratch) / "code"),
        }
        here = Path(scratch)
        return [
            timed("--jobs 1 (cold)", [*paths, "--jobs", "1", "--no-cache"], env, here),
            timed("--jobs 2 (cold)", [*paths, "--jobs", "2"], env, here),
            timed("--jobs 2 (warm cache)", [*paths, "--jobs", "2"], env, here),
        ]


def table(measures: list[Measure], lines: int) -> str:
    base = measures[0]
    rows = [
        "| run | wall s | CPU s | lines/s (wall) | speed-up vs --jobs 1 (wall) |",
        "|---|---|---|---|---|",
    ]
    for m in measures:
        rows.append(
            f"| {m.name} | {m.wall:.2f} | {m.cpu:.2f} | {lines / m.wall:,.0f} "
            f"| {base.wall / m.wall:.2f}x |"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    trees = args.trees or default_trees()
    files, lines = count_lines(trees)
    measures = run_all(trees)
    if args.json:
        print(json.dumps({"files": files, "lines": lines, "runs": [asdict(m) for m in measures]}))
    else:
        print(f"{files} files, {lines:,} lines, {os.cpu_count()} CPUs")
        print(table(measures, lines))
        cold, warm = measures[1], measures[2]
        print(f"warm re-run: {cold.wall / warm.wall:.1f}x faster than the cold --jobs 2 run")
    return 0 if all(m.code in (0, 1) for m in measures) else 1


if __name__ == "__main__":
    sys.exit(main())
