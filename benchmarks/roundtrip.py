"""Round trip over installed packages: check and rewrite every file, nothing crashes,
every rewrite parses, and a second rewrite changes nothing.

Usage: python benchmarks/roundtrip.py [PACKAGE ...] [--every N]
PACKAGE defaults to jax, libcst and networkx; --every N samples every Nth file.
Exit 0 when every file passed; the failures are listed otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

import libcst as cst

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import AutooptError

ALL_FIXES = Settings(unsafe_fixes=True)


def package_files(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit(f"package {name!r} is not installed")
    return sorted(Path(spec.origin).parent.rglob("*.py"))


def round_trip(path: Path) -> str | None:
    """None when the file passes, else what went wrong."""
    try:
        code = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # not ours to judge: the workspace layer reports unreadable files
    try:
        result = optimize_source(code, path=str(path), settings=ALL_FIXES)
    except AutooptError as exc:
        return None if "syntax error" in exc.message else str(exc)
    except Exception as exc:  # a crash is exactly what this script looks for
        return f"crash: {type(exc).__name__}: {exc}"
    if not result.changed:
        return None
    try:
        cst.parse_module(result.new_source)
    except cst.ParserSyntaxError as exc:
        return f"rewrite does not parse: {exc.message}"
    again = optimize_source(result.new_source, path=str(path), settings=ALL_FIXES)
    return None if not again.changed else "a second rewrite changes the code again"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("packages", nargs="*", default=["jax", "libcst", "networkx"])
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args(argv)
    files = [f for name in args.packages for f in package_files(name)][:: args.every]
    start = time.perf_counter()
    failures = [(f, problem) for f in files if (problem := round_trip(f))]
    seconds = time.perf_counter() - start
    for path, problem in failures:
        print(f"{path}: {problem}")
    print(f"{len(files)} files, {len(failures)} failures, {seconds:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
