"""Lines per second of `autoopt check` (all rules) against a bare LibCST parse.

Usage: python benchmarks/analysis_speed.py [TREE] [--limit N]
TREE defaults to the installed jax package. One process, files read once up
front; each phase runs over the same files, and the ratio is check / parse.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

import libcst as cst

from autoopt.api import check_source
from autoopt.model import AutooptError


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


def timed(fn, sources) -> float:
    start = time.process_time()
    for path, code in sources:
        with contextlib.suppress(AutooptError, cst.ParserSyntaxError):
            fn(path, code)
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tree", nargs="?", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    tree = args.tree or _default_tree()
    sources = load(tree, args.limit)
    lines = sum(code.count("\n") for _, code in sources)
    parse_times, check_times = [], []
    for _ in range(args.repeat):
        parse_times.append(timed(lambda p, c: cst.parse_module(c), sources))
        check_times.append(timed(lambda p, c: check_source(c, path=p), sources))
    parse, check = statistics.median(parse_times), statistics.median(check_times)
    print(
        f"tree: {tree} ({len(sources)} files, {lines} lines), CPU seconds, median of {args.repeat}"
    )
    print(f"{'phase':<12}{'seconds':>10}{'lines/s':>12}")
    print(f"{'parse':<12}{parse:>10.2f}{lines / parse:>12.0f}")
    print(f"{'check':<12}{check:>10.2f}{lines / check:>12.0f}")
    print(f"ratio check/parse: {check / parse:.2f}x (target <= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
