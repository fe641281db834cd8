"""The batches a step takes by its traced loop index (analysis/plans/batches.py): each
premise with the doubt it yields, and the claims checked against the installed JAX."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import libcst as cst
import numpy as np
import pytest

from autoopt.analysis.plans.batches import Blocks, batch_blocks

from ..helpers import HEADER, context

SETUP = "B = 8\nN = 6\n\n\ndef train(w, data):\n"
DATA = "    x = jnp.asarray(np.random.default_rng(0).normal(size=(48, 3)), jnp.float32)\n"


def blocks_of(before: str, loop: str, body: str) -> Blocks:
    lines = "".join(f"        {line}\n" for line in body.split("\n"))
    code = SETUP + before + f"    for {loop}:\n" + lines + "    return w\n"
    ctx = context(code, HEADER)
    loop = ctx.graph.loops[0]
    header = ctx.graph.stmts[loop.header]
    index = header.node.target.value  # type: ignore[attr-defined]  # a `for name in` loop
    step = [s for s in ctx.graph.loop_stmts(loop.id) if s.id != header.id]
    return batch_blocks(ctx, loop, step, index)


STEP = "w = w + jnp.sum(xb)"


@pytest.mark.parametrize(
    ("before", "loop", "taken", "spelled"),
    [
        (DATA, "i in range(N)", "x[i * B : (i + 1) * B]", ("i * B", "B")),
        (DATA, "i in range(6)", "x[B * i : B * i + B]", ("B * i", "B")),
        (DATA, "i in range(1, 7)", "x[(i - 1) * B : i * B]", ("(i - 1) * B", "B")),
        (DATA, "t in range(48 - 5 + 1)", "x[t : t + 5]", ("t", "5")),
        (DATA, "i in range(N)", "x[i * B : i * B + 4]", ("i * B", "4")),
    ],
)
def test_blocks_taken(before: str, loop: str, taken: str, spelled: tuple[str, str]) -> None:
    found = blocks_of(before, loop, f"xb = {taken}\n{STEP}")
    assert not found.doubt
    (block,) = found.blocks
    assert block.array.value == "x"
    assert (cst.Module([]).code_for_node(block.start), block.size) == spelled


@pytest.mark.parametrize(
    ("before", "loop", "taken", "doubt"),
    [
        (
            DATA,
            "i in range(7)",
            "x[i * B : (i + 1) * B]",
            "`x[i * B : (i + 1) * B]` runs past the 48 rows of `x` at `i = 6` (a ragged batch",
        ),
        (
            DATA,
            "i in range(N)",
            "x[(i - 1) * B : i * B]",
            "`x[(i - 1) * B : i * B]` starts before the first row of `x` at `i = 0`",
        ),
        (
            "    x = jnp.asarray(data)\n",
            "i in range(N)",
            "x[i * B : (i + 1) * B]",
            "cannot prove how many rows `x` has",
        ),
        (DATA, "i in range(len(data))", "x[i * B : (i + 1) * B]", "the loop's range is not of"),
        (DATA, "i in range(N)", "x[i * B : (i + 1) * 2 * B]", "is not a block of one size"),
        (DATA, "i in range(N)", "x[i * i : i * i + B]", "is not a block of one size"),
        (DATA, "i in range(N)", "x[i * B : i * B]", "is empty at every index"),
        (DATA, "i in range(N)", "x[i * B : (i + 1) * B : 2]", "is not a block of one size"),
        (DATA, "i in range(N)", "(x + 1)[i * B : (i + 1) * B]", "not a plain name"),
    ],
)
def test_premises_that_fail(before: str, loop: str, taken: str, doubt: str) -> None:
    found = blocks_of(before, loop, f"xb = {taken}\n{STEP}")
    assert not found.blocks and doubt in found.doubt, found.doubt


def test_a_dataset_the_loop_rebinds() -> None:
    found = blocks_of(DATA, "i in range(N)", f"xb = x[i * B : (i + 1) * B]\n{STEP}\nx = x * 2")
    assert found.doubt == "the loop rebinds `x`, which `x[i * B : (i + 1) * B]` slices"


def test_a_slice_inside_a_lambda_is_its_own() -> None:
    body = f"f = lambda i: x[i * B : (i + 1) * B]\nxb = f(i + 1)\n{STEP}"
    assert blocks_of(DATA, "i in range(N)", body) == Blocks()


def test_host_arrays_are_left_to_the_other_premises() -> None:
    """A NumPy array sliced by the index is not a block taken on the device (its doubt is
    `fori.index_doubts`'s: it may raise where a traced index clamps)."""
    host = "    x = np.random.default_rng(0).normal(size=(48, 3))\n"
    assert blocks_of(host, "i in range(N)", f"xb = x[i * B : (i + 1) * B]\n{STEP}") == Blocks()


@pytest.mark.parametrize("start", [0, 3, 8])
def test_a_whole_block_is_the_same_rows_traced(start: int) -> None:
    x = jnp.arange(48.0).reshape(16, 3)
    taken = jax.jit(lambda i: jax.lax.dynamic_slice_in_dim(x, i, 8))(start)
    np.testing.assert_array_equal(np.asarray(taken), np.asarray(x[start : start + 8]))


def test_a_ragged_or_negative_block_is_other_rows_traced() -> None:
    """The premises the plan asks for: past the end, or before the start, the Python
    slice (short, or empty) and `dynamic_slice_in_dim` (a full batch) part."""
    x = jnp.arange(10.0)
    take = jax.jit(lambda i: jax.lax.dynamic_slice_in_dim(x, i, 4))
    assert x[8:12].shape == (2,) and take(8).tolist() == [6.0, 7.0, 8.0, 9.0]
    assert x[-4:0].shape == (0,) and take(-4).shape == (4,)
