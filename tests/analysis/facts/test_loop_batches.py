"""A loop's batch: new buffers a generator of the module yields every iteration."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.loop_batches import batch_verdict
from autoopt.model import Applicability

from ..helpers import HEADER, context, stmt

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

GEN = """
def loader(arrays, size):
    perm = np.random.permutation(arrays[0].shape[0])
    for start in range(0, 8, size):
        part = perm[start : start + size]
        yield tuple(array[part] for array in arrays)

def single(data):
    for i in range(4):
        yield data[jnp.arange(2) + i]

def twice(data):
    for i in range(4):
        b = data[jnp.arange(2) + i]
        yield b, b

def passes(data):
    yield from data

def sliced(data):
    for i in range(4):
        yield data[i : i + 2]

def main(given):
    xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))
"""


def verdict(loop: str, body: str = "", name: str = "x"):
    code = GEN + "    " + loop + "\n" + "".join(f"        {line}\n" for line in body.splitlines())
    code += "        out = step(x)\n"
    ctx = context(code, HEADER)
    return batch_verdict(ctx, stmt(ctx, "out = step(x)"), name)


@pytest.mark.parametrize(
    "loop",
    [
        "for _, (x, y) in zip(range(4), loader((xs, ys), 2)):",
        "for i, (x, y) in enumerate(loader((xs, ys), 2)):",
        "for x, y in loader((xs, ys), 2):",
        "for x in single(xs):",
        "for (x, y), _ in zip(loader((xs, ys), 2), range(4), strict=False):",
    ],
)
def test_fresh_batches_are_proven(loop: str) -> None:
    assert verdict(loop) == (_SAFE, "")


@pytest.mark.parametrize("pair", ["(xs, ys)", "[xs, ys]", "(xs,) + (ys,)"])
def test_a_tuple_of_arrays_bound_to_a_name_is_followed(pair: str) -> None:
    """`arrays` given as a name the value model knows holds a tuple (or list) of arrays:
    each `array` of `tuple(array[part] for array in arrays)` is one."""
    code = GEN + f"    pair = {pair}\n    for x, y in loader(pair, 2):\n        out = step(x)\n"
    ctx = context(code, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(x)"), "x") == (_SAFE, "")


def test_a_name_bound_once_to_the_generator_is_followed() -> None:
    code = GEN + "    batches = loader((xs, ys), 2)\n    for x, y in batches:\n"
    code += "        out = step(x)\n"
    ctx = context(code, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(x)"), "x") == (_SAFE, "")


@pytest.mark.parametrize(
    ("loop", "why"),
    [
        ("for x, y in twice(xs):", "cannot prove `twice` yields new buffers (`b, b`)"),
        ("for x in passes(given):", "`passes` yields values it does not make (`yield from`)"),
        (
            "for x, y in loader((given, ys), 2):",
            "cannot prove `loader` yields new buffers (`tuple(array[part] for array in arrays)`)"
            ": `given`, given in `arrays`, is not proven an array",
        ),
        (
            "for x, y in loader(given, 2):",
            "cannot prove `loader` yields new buffers (`tuple(array[part] for array in arrays)`)"
            ": `given`, given as `arrays`, is not proven a tuple of arrays",
        ),
        (  # `data[0:8]` of an array of 8 rows is the array itself
            "for x in sliced(xs):",
            "cannot prove `sliced` yields new buffers (`data[i : i + 2]`): its index is no array "
            "(a basic slice may return the array itself)",
        ),
    ],
)
def test_unproven_yields_are_unsafe(loop: str, why: str) -> None:
    assert verdict(loop) == (_UNSAFE, why)


@pytest.mark.parametrize(
    "loop",
    [
        "for x in given:",
        "for x in [xs, ys]:",
        "for x in itertools.repeat(xs, 3):",
        "for _, x in zip(range(4), given):",
    ],
)
def test_other_iterables_may_keep_their_items(loop: str) -> None:
    fix, message = verdict(loop)
    assert fix is _NONE
    assert message == "`x` is neither replaced by the call's output nor proven dead after it"


@pytest.mark.parametrize(
    "body",
    [
        "kept = x",  # another statement reads it
        "x = x + 1",  # rebound in the body
    ],
)
def test_a_batch_read_or_rebound_elsewhere_is_left_to_the_alias_proof(body: str) -> None:
    assert verdict("for x, y in loader((xs, ys), 2):", body) is None


def test_a_shadowed_zip_is_not_read_as_the_builtin() -> None:
    code = GEN.replace("def main(given):", "def zip(*a):\n    return a\n\ndef main(given):")
    code += "    for _, (x, y) in zip(range(4), loader((xs, ys), 2)):\n        out = step(x)\n"
    ctx = context(code, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(x)"), "x")[0] is _NONE


def test_a_call_in_an_inner_loop_is_not_per_iteration() -> None:
    code = GEN + "    for x, y in loader((xs, ys), 2):\n        for _ in range(2):\n"
    code += "            out = step(x)\n"
    ctx = context(code, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(x)"), "x") is None


def test_a_name_bound_before_the_loop_too_holds_the_batch_in_it() -> None:
    """`for data in single(data)`: the generator takes the dataset once, before the
    first batch is bound; in the body only the header's binding reaches the call."""
    code = GEN + "    data = xs * 2\n    for data in single(data):\n        out = step(data)\n"
    ctx = context(code, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(data)"), "data") == (_SAFE, "")


@pytest.mark.parametrize(
    "after",
    [
        "    last = data\n",  # the last batch, read after the loop
        "    for data in single(data):\n        pass\n",  # a loader made of the last batch
    ],
)
def test_a_shadowing_batch_read_after_its_call_is_left_to_the_alias_proof(after: str) -> None:
    code = GEN + "    data = xs * 2\n    for data in single(data):\n        out = step(data)\n"
    ctx = context(code + after, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(data)"), "data") is None


def test_an_outer_loop_handing_the_last_batch_to_the_next_loader_is_no_batch() -> None:
    """The second epoch's `single(data)` reads the last batch of the first, which a
    donation would have deleted."""
    code = GEN + "    data = xs * 2\n    for _ in range(2):\n        for data in single(data):\n"
    code += "            out = step(data)\n"
    ctx = context(code, HEADER)
    assert batch_verdict(ctx, stmt(ctx, "out = step(data)"), "data") is None
