"""AO402: growing an array by concatenation is quadratic; the rewrite is linear.

Rewrites a small growth loop with autoopt (AO402 only), then times the original and
the rewritten loop at several sizes in this process: one warm-up per size (the
original compiles one concatenate per new shape), then the median of `--repeat`
timed runs with `block_until_ready`. Linear code keeps the time per row flat.

Usage: python benchmarks/ao402_scaling.py [--sizes 100 200 400 800] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from autoopt import Settings, optimize_source

PROGRAM = """\
import jax.numpy as jnp


def grow(n, width):
    acc = jnp.zeros((0, width), dtype=jnp.float32)
    for i in range(n):
        row = jnp.full((1, width), i, dtype=jnp.float32)
        acc = jnp.concatenate([acc, row])
    return acc
"""


def load(code: str):
    namespace: dict = {}
    exec(compile(code, "<ao402>", "exec"), namespace)
    return namespace["grow"]


def median_seconds(fn, n: int, width: int, repeat: int) -> float:
    fn(n, width).block_until_ready()  # warm-up: compiles outside the timed runs
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(n, width).block_until_ready()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 800])
    parser.add_argument("--width", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rewritten = optimize_source(PROGRAM, settings=Settings(select=("AO402",))).new_source
    assert rewritten != PROGRAM, "AO402 did not rewrite the benchmark program"
    original, fixed = load(PROGRAM), load(rewritten)
    print(f"rows of {args.width} float32, median of {args.repeat} after one warm-up")
    print(f"{'rows':>6} {'original ms':>12} {'us/row':>8} {'rewritten ms':>13} {'us/row':>8}")
    for n in args.sizes:
        a = median_seconds(original, n, args.width, args.repeat)
        b = median_seconds(fixed, n, args.width, args.repeat)
        print(f"{n:>6} {a * 1e3:>12.1f} {a / n * 1e6:>8.1f} {b * 1e3:>13.1f} {b / n * 1e6:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
