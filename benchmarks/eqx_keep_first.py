"""AO201: an `eqx.filter_jit` step that must keep an argument, undonated vs kept-first.

The program trains with a momentum step that reads the whole dataset every call, so
neither `donate="all"` nor `"all-except-first"` may be written as it is (the dataset
would be deleted by the first call). AO201 passes the dataset first, packed in a tuple,
and donates the rest (`donate="all-except-first"`): the parameters and the momentum are
updated in place. This script makes that rewrite with autoopt itself, then, in this
process, times the two forms side by side: one warm-up call each (compilation), then
`--repeat` rounds alternating the forms, each `--steps` steps timed with
`block_until_ready`; medians per step and their ratio are printed, with each compiled
step's memory (`memory_analysis()`: arguments + outputs - aliased + temporaries) and
whether both forms give the same numbers.

Usage: python benchmarks/eqx_keep_first.py [--size 2048] [--steps 10] [--repeat 7]
`--save FILE` writes AO201's rewrite and stops; `--rewritten FILE` times that rewrite
instead of making it (for a machine where autoopt is not installed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

PROGRAM = """\
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(params, momentum, xs, ys):
    def loss(p):
        return jnp.mean((jnp.tanh(xs @ p["w"]) @ p["v"] - ys) ** 2)

    grads = jax.grad(loss)(params)
    momentum = jax.tree.map(lambda m, g: 0.9 * m + g, momentum, grads)
    params = jax.tree.map(lambda p, m: p - 1e-3 * m, params, momentum)
    return params, momentum


def train(params, momentum, xs, ys, steps):
    for _ in range(steps):
        params, momentum = step(params, momentum, xs, ys)
    return params, momentum


def main():
    xs, ys = jnp.ones((8, 64)), jnp.ones((8, 64))
    params = {"w": jnp.zeros((64, 64)), "v": jnp.zeros((64, 64))}
    momentum = {"w": jnp.zeros((64, 64)), "v": jnp.zeros((64, 64))}
    return train(params, momentum, xs, ys, 3)
"""
KEPT = "step((xs, ys), params, momentum)"


def programs(saved: str = "") -> dict[str, str]:
    """The original and AO201's rewrite of it (read from the file `saved`, if given)."""
    if saved:
        with open(saved, encoding="utf-8") as file:
            rewritten = file.read()
    else:
        from autoopt import Settings, optimize_source

        rewritten = optimize_source(PROGRAM, settings=Settings(select=("AO201",))).new_source
    assert KEPT in rewritten and 'donate="all-except-first"' in rewritten, rewritten
    return {"undonated": PROGRAM, "kept-first": rewritten}


def load(code: str) -> dict:
    namespace: dict = {}
    exec(compile(code, "<eqx_keep_first>", "exec"), namespace)
    return namespace


def state(size: int, batch: int) -> tuple:
    """Parameters and momentum of `2 * size**2` floats each, and one dataset."""
    import jax.numpy as jnp
    import jax.random as jr

    kw, kv, kx = jr.split(jr.PRNGKey(0), 3)
    params = {"w": jr.normal(kw, (size, size)) / size, "v": jr.normal(kv, (size, size)) / size}
    momentum = {k: jnp.zeros_like(v) for k, v in params.items()}
    xs = jr.normal(kx, (batch, size))
    return params, momentum, xs, jnp.tanh(xs)


def timed(train: Callable, size: int, batch: int, steps: int) -> tuple[float, object]:
    """Seconds per step of `steps` steps from a fresh state, and the result."""
    import jax

    params, momentum, xs, ys = state(size, batch)
    jax.block_until_ready((params, momentum, xs, ys))
    start = time.perf_counter()
    out = jax.block_until_ready(train(params, momentum, xs, ys, steps))
    return (time.perf_counter() - start) / steps, out


def memory(name: str, step: Callable, size: int, batch: int) -> float:
    """The compiled step's memory in MiB: arguments + outputs - aliased + temporaries."""
    params, momentum, xs, ys = state(size, batch)
    args = (params, momentum, xs, ys) if name == "undonated" else ((xs, ys), params, momentum)
    stats = step.lower(*args).compile().compiled.memory_analysis()  # jax.stages.Compiled
    if stats is None:
        return float("nan")
    total = (
        stats.argument_size_in_bytes
        + stats.output_size_in_bytes
        - stats.alias_size_in_bytes
        + stats.temp_size_in_bytes
    )
    return total / 2**20


def main(argv: list[str] | None = None) -> int:
    import jax
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--save", default="")
    parser.add_argument("--rewritten", default="")
    args = parser.parse_args(argv)
    codes = programs(args.rewritten)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as file:
            file.write(codes["kept-first"])
        return 0
    forms = {name: load(code) for name, code in codes.items()}
    times: dict[str, list[float]] = {name: [] for name in forms}
    results = {}
    for name, ns in forms.items():  # warm-up: compile
        _, results[name] = timed(ns["train"], args.size, args.batch, 1)
    for _ in range(args.repeat):
        for name, ns in forms.items():
            seconds, results[name] = timed(ns["train"], args.size, args.batch, args.steps)
            times[name].append(seconds)
    same = all(
        np.allclose(a, b, rtol=1e-5, atol=1e-6)
        for a, b in zip(
            jax.tree.leaves(results["undonated"]),
            jax.tree.leaves(results["kept-first"]),
            strict=True,
        )
    )
    mib = 2 * 2 * args.size**2 * 4 / 2**20
    print(f"device: {jax.devices()[0].device_kind}; state {mib:.0f} MiB (params + momentum)")
    print("| form | ms per step (median) | compiled step memory (MiB) |")
    print("|---|---|---|")
    medians = {name: statistics.median(t) * 1e3 for name, t in times.items()}
    for name, ns in forms.items():
        used = memory(name, ns["step"], args.size, args.batch)
        print(f"| {name} | {medians[name]:.2f} | {used:.0f} |")
    ratio = medians["undonated"] / medians["kept-first"]
    print(f"speedup (undonated / kept-first): {ratio:.2f}x; same results: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
