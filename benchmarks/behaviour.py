"""Dump autoopt's findings and rewrites over trees, to show a change is behaviour-neutral.

    python benchmarks/behaviour.py OUT [TREE ...]

For each tree (default: the corpus, the hazard programs and the pending programs) it
writes `check --format json` and `rewrite --unsafe-fixes --include-tests` (a diff of every
fix, safe or not) into OUT, one pair of files per tree, through the command line as a user
runs it, without caches. Run it before and after a change and compare with `diff -r`:
a structural change leaves the two folders byte-identical. Real repositories go in as
further trees (`/tmp/repos/flax`, see benchmarks/realworld_repos.md).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TREES = [ROOT / "corpus", ROOT / "tests/hazards/programs", ROOT / "benchmarks/pending"]
COMMANDS = {
    "check.json": ["check", "--format", "json"],
    "rewrite.diff": ["rewrite", "--unsafe-fixes", "--include-tests"],
}


def dump(tree: Path, out: Path) -> None:
    """Write the tree's findings and rewrites into OUT, named after the tree."""
    for suffix, command in COMMANDS.items():
        argv = [sys.executable, "-m", "autoopt", *command, "--no-cache", "--no-progress", "."]
        done = subprocess.run(argv, cwd=tree, capture_output=True, text=True, check=False)
        if not done.stdout:  # exit 2 with output: some files could not be read, as reported
            raise SystemExit(f"{tree}: {' '.join(command)} failed:\n{done.stderr}")
        text = f"{done.stdout}exit {done.returncode}\n"
        (out / f"{tree.name}.{suffix}").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("trees", type=Path, nargs="*", default=DEFAULT_TREES)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for tree in args.trees:
        dump(tree.resolve(), args.out)
        print(f"{tree}: done")


if __name__ == "__main__":
    main()
