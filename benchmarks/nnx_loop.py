"""AO103's nnx whole loop on the shape of jax-ai-stack's neural_net_basics.ipynb (cell 14).

Usage: python benchmarks/nnx_loop.py [--steps N] [--every K] [--repeats R] [--rows B]

Runs, side by side and each on a fresh model, the notebook's loop (an `nnx.jit` step per
iteration, the test loss read every K steps), the rewrite AO103 makes (the steps between
the reads as one `nnx.fori_loop` under `@nnx.jit`) and the same with
`nnx.split`/`jax.lax.fori_loop`/`nnx.update`; checks that every read and the final state
are bitwise the same, then prints the median wall time of later runs of each (compiled
already) and the ratio to the loop.
The data have the digits split's shapes (1347 training images of 8x8, 450 test images);
`--rows B` trains on B images instead (a smaller step, where the dispatch weighs more).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import jax
import numpy as np
import optax
from flax import nnx

Run = Callable[[nnx.Module, nnx.Optimizer], list[float]]


class SimpleNN(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs) -> None:
        self.layer1 = nnx.Linear(64, 100, rngs=rngs)
        self.layer2 = nnx.Linear(100, 100, rngs=rngs)
        self.layer3 = nnx.Linear(100, 10, rngs=rngs)

    def __call__(self, x: jax.Array) -> jax.Array:
        x = x.reshape(x.shape[0], 64)
        return self.layer3(nnx.selu(self.layer2(nnx.selu(self.layer1(x)))))


def loss_fun(model: nnx.Module, data: jax.Array, labels: jax.Array):
    logits = model(data)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), logits


@nnx.jit
def train_step(model, optimizer, data, labels):
    grads, _ = nnx.grad(loss_fun, has_aux=True)(model, data, labels)
    optimizer.update(grads)


@nnx.jit
def fori_steps(model, optimizer, data, labels, steps):
    """The rewrite's form."""

    def body(_, carry):
        model, optimizer = carry
        train_step(model, optimizer, data, labels)
        return model, optimizer

    nnx.fori_loop(0, steps, body, (model, optimizer))


@nnx.jit
def split_steps(model, optimizer, data, labels, steps):
    """The same steps, the state split out and carried by `jax.lax.fori_loop`."""
    graphdef, state = nnx.split((model, optimizer))

    def body(_, state):
        model, optimizer = nnx.merge(graphdef, state)
        train_step(model, optimizer, data, labels)
        return nnx.state((model, optimizer))

    nnx.update((model, optimizer), jax.lax.fori_loop(0, steps, body, state))


def _forms(data: tuple[jax.Array, ...], steps: int, every: int) -> dict[str, Run]:
    x, y, x_test, y_test = data

    def eager(model, optimizer):
        reads = []
        for i in range(steps):
            train_step(model, optimizer, x, y)
            if i % every == 0:
                reads.append(float(loss_fun(model, x_test, y_test)[0]))
        return reads

    def chunked(run):
        def loop(model, optimizer):
            reads, pending = [], 0
            for i in range(steps):
                pending += 1
                if i % every == 0:
                    run(model, optimizer, x, y, pending)
                    pending = 0
                    reads.append(float(loss_fun(model, x_test, y_test)[0]))
            if pending:
                run(model, optimizer, x, y, pending)
            return reads

        return loop

    return {
        "eager loop": eager,
        "nnx.fori_loop": chunked(fori_steps),
        "split": chunked(split_steps),
    }


#: One transformation for every fresh optimizer: it is static in the graph that `nnx.jit`
#: keys its cache on, so a new one each run would compile each run again.
TX = optax.sgd(learning_rate=0.05)


def _fresh() -> tuple[nnx.Module, nnx.Optimizer]:
    model = SimpleNN(rngs=nnx.Rngs(0))
    return model, nnx.ModelAndOptimizer(model, TX)


def _state(model: nnx.Module) -> list[np.ndarray]:
    return [np.asarray(leaf) for leaf in jax.tree.leaves(nnx.state(model))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=301)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=1347)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    images = rng.normal(size=(1797, 8, 8)).astype(np.float32)
    labels = rng.integers(0, 10, 1797)
    rows = min(args.rows, 1347)
    split = (images[:rows], labels[:rows], images[1347:], labels[1347:])
    data = tuple(jax.device_put(a) for a in split)
    forms = _forms(data, args.steps, args.every)
    reference = None
    for name, run in forms.items():  # compiles each, and checks the numbers
        model, optimizer = _fresh()
        out = (run(model, optimizer), _state(model))
        reference = reference or out
        same = out[0] == reference[0] and all(
            np.array_equal(a, b) for a, b in zip(out[1], reference[1], strict=True)
        )
        print(f"{name}: reads and final state bitwise the loop's: {same}")
    times: dict[str, list[float]] = {name: [] for name in forms}
    for _ in range(args.repeats):
        for name, run in forms.items():
            model, optimizer = _fresh()
            jax.block_until_ready(nnx.state(model))
            start = time.perf_counter()
            run(model, optimizer)
            jax.block_until_ready(nnx.state(model))
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times["eager loop"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name}: median {median * 1e3:.0f} ms over {args.repeats}, {base / median:.2f}x")


if __name__ == "__main__":
    main()
