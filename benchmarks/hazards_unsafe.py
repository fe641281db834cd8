"""What the `--unsafe-fixes` rewrite does to each program of the hazard suite.

Usage: python benchmarks/hazards_unsafe.py [hNN ...]

Unsafe fixes may break programs (that is what unsafe means), so this is a table, not a
test: per program, whether the unsafe rewrite left the code alone, kept the result, changed
it, crashed, or could not be made; then the totals and the seconds of each variant's runs.
The test suite (`tests/hazards`) runs only the original and the default rewrite.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hazards"))

from test_hazards import PROGRAMS, VARIANTS, _named, build_suite, outcome


def table(programs: list[str]) -> list[str]:
    """One line per program, then the totals and the seconds per variant."""
    suite = build_suite(programs, VARIANTS)
    try:
        rows = [(p, *outcome(suite, "unsafe", p)) for p in programs]
    finally:
        shutil.rmtree(suite.root, ignore_errors=True)
    width = max(len(p) for p, _, _ in rows)
    lines = [f"{'program':<{width}}  {'unsafe rewrite':<14}  detail"]
    lines += [f"{p:<{width}}  {k:<14}  {d[:120]}" for p, k, d in rows]
    kinds = sorted({k for _, k, _ in rows})
    lines.append("totals: " + ", ".join(f"{k} {sum(r[1] == k for r in rows)}" for k in kinds))
    lines.append("seconds: " + ", ".join(f"{v} {s:.1f}" for v, s in suite.seconds.items()))
    return lines


def main(argv: list[str]) -> int:
    wanted = [p for p in PROGRAMS if not argv or any(_named(p, w) for w in argv)]
    print("\n".join(table(wanted)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
