"""Per-step cost of taking a minibatch eagerly, the three ways AO301 could write it.

Usage: python benchmarks/eager_slice.py [--rows N] [--batch B] [--epochs E]

Times, per step, on the default JAX device: `jnp.asarray(x_np[i*B:(i+1)*B])` (the
original loop), `x_dev[i*B:(i+1)*B]` (AO301's sliced form) and
`jax.lax.dynamic_slice_in_dim(x_dev, i*B, B)`. The first epoch (each start used for the
first time) is reported apart from the later ones, so a compile per distinct start
would show as a first-epoch cost. Issue 26: on JAX 0.10, eager `lax.slice` already runs
as `dynamic_slice` with the start as an argument (one executable per size), so there is
no such compile; the dynamic form adds a dispatch for the start index instead.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

Take = Callable[[int], jax.Array]


def _forms(x_np: np.ndarray, batch: int) -> dict[str, Take]:
    x_dev = jax.device_put(x_np)
    return {
        "numpy slice + jnp.asarray": lambda i: jnp.asarray(x_np[i * batch : (i + 1) * batch]),
        "device array slice": lambda i: x_dev[i * batch : (i + 1) * batch],
        "dynamic_slice_in_dim": lambda i: jax.lax.dynamic_slice_in_dim(x_dev, i * batch, batch),
    }


def _us_per_step(take: Take, steps: int, epochs: int) -> float:
    start = time.perf_counter()
    for _ in range(epochs):
        for i in range(steps):
            take(i).block_until_ready()
    return (time.perf_counter() - start) / (steps * epochs) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    x_np = np.random.default_rng(0).random((args.rows, 32), dtype=np.float32)
    steps = args.rows // args.batch
    print(f"{jax.devices()[0]}, {steps} steps an epoch; us/step: first epoch, later epochs")
    for name, take in _forms(x_np, args.batch).items():
        take(steps - 1).block_until_ready()  # the form's first compile, left out
        first = _us_per_step(take, steps - 1, 1)
        later = _us_per_step(take, steps - 1, args.epochs)
        print(f"{name:28} {first:8.1f} {later:8.1f}")


if __name__ == "__main__":
    main()
