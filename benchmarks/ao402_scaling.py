"""AO402: growing an array by concatenation is quadratic; both rewrites are linear.

Times three forms of one growth loop side by side in this process: the original
(`acc = jnp.concatenate([acc, row])`), the list form (pieces collected in a list,
one concatenate after the loop) and the preallocation form (a buffer allocated
before the loop, rows written by a jitted helper that donates it). AO402 writes
both rewrites: the preallocation for the program as it is, the list form when
the trip count is hidden from it (`iter(range(n))`, which iterates the same).

Per size: one warm-up call of each form (the original compiles one concatenate
per new shape, the helper one update per buffer shape), then `--repeat` rounds
that run the three forms in turn, each timed with `block_until_ready`; medians
are reported. Linear code keeps the time per row flat: from the first to the
last size, a linear form grows by the ratio of the sizes (8x for 100 -> 800).

Usage: python benchmarks/ao402_scaling.py [--sizes 100 200 400 800] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

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
FORMS = ("original", "list", "prealloc")


def rewrite(code: str) -> str:
    return optimize_source(code, settings=Settings(select=("AO402",))).new_source


def programs() -> dict[str, str]:
    """The three forms, the two rewrites as AO402 writes them."""
    hidden = PROGRAM.replace("in range(n)", "in iter(range(n))")
    listed, preallocated = rewrite(hidden), rewrite(PROGRAM)
    assert "acc_parts.append(row)" in listed, "AO402 did not write the list form"
    assert "acc_write_rows(acc, i, row)" in preallocated, "AO402 did not preallocate"
    return {"original": PROGRAM, "list": listed, "prealloc": preallocated}


def load(code: str) -> Callable:
    namespace: dict = {}
    exec(compile(code, "<ao402>", "exec"), namespace)
    return namespace["grow"]


def seconds(fn: Callable, n: int, width: int) -> float:
    start = time.perf_counter()
    fn(n, width).block_until_ready()
    return time.perf_counter() - start


def medians(fns: dict[str, Callable], n: int, width: int, repeat: int) -> dict[str, float]:
    """Median seconds of each form at `n` rows, the forms interleaved round by round."""
    results = {name: fn(n, width) for name, fn in fns.items()}  # warm-up: compiles
    reference = results["original"]
    for name, result in results.items():
        assert result.shape == reference.shape and result.dtype == reference.dtype, name
        assert bool((result == reference).all()), name
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            times[name].append(seconds(fn, n, width))
    return {name: statistics.median(t) for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 800])
    parser.add_argument("--width", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    fns = {name: load(code) for name, code in programs().items()}
    print(f"rows of {args.width} float32; median of {args.repeat} interleaved rounds after one")
    print("warm-up; ms (us per row); ratios are the original's or the list form's time over")
    print("the preallocation form's\n")
    print("| rows | original | list form | preallocation | original / prealloc | list / prealloc |")
    print("|---|---|---|---|---|---|")
    table = {}
    for n in args.sizes:
        t = table[n] = medians(fns, n, args.width, args.repeat)
        cells = " | ".join(f"{t[f] * 1e3:,.1f} ({t[f] / n * 1e6:,.0f})" for f in FORMS)
        ratios = f"{t['original'] / t['prealloc']:.2f}x | {t['list'] / t['prealloc']:.2f}x"
        print(f"| {n} | {cells} | {ratios} |")
    first, last = args.sizes[0], args.sizes[-1]
    growth = ", ".join(f"{f} {table[last][f] / table[first][f]:.1f}x" for f in FORMS)
    print(f"\n{first} -> {last} rows (linear: {last / first:.0f}x): {growth}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
