"""Can a step take its batch by a traced loop index, `lax.dynamic_slice_in_dim`?

A loop over batch indices slices each batch from a dataset already on the device:

    for i in range(N_BATCHES):
        xb = x_dev[i * BATCH : (i + 1) * BATCH]

A jitted step cannot take that slice with a traced `i` (a slice's bounds must be Python
ints), so the step would need `i` static and compile once per batch. The same rows come
from `lax.dynamic_slice_in_dim(x_dev, i * BATCH, BATCH)` with `i` traced, where every
batch is whole: a Python slice that runs past the end of the array comes out short, and
one that starts before it wraps around, where `dynamic_slice_in_dim` shifts the window
back inside the array, full size (a ragged last batch would be other rows). So each
slice (a block) is taken over only where these premises are proven:

- the array is a JAX array (the value model) the loop does not rebind, named;
- both bounds are linear in the loop variable with the same slope, over integer
  literals and module constants (`i * B`, `(i + 1) * B`, `i * B + B`, `i`, `i + B`):
  the block's size is their difference, one positive constant;
- the loop is `range` of integer literals or module constants, and at its first and
  last index (the bounds are linear, so those are the extremes) the block starts at 0
  or after and ends at the array's length or before: the length is computed from the
  array's definitions before the loop (`analysis/plans/carry_types.py`: constructors,
  NumPy draws with a `size`, conversions, module functions of straight-line code).
  The traced index is an int32: such bounds, within an array's length, never overflow.

Where a block of a JAX array read by the loop variable fails a premise, the first one
that fails is the plan's `doubt`, for the message.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.plans.carry_types import carry_types
from autoopt.analysis.plans.fori import counted_for
from autoopt.analysis.values.array_type import ArrayType
from autoopt.analysis.values.ints import module_constant
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model


@dataclass(frozen=True)
class Block:
    """`array[start : start + size]`, taken as `lax.dynamic_slice_in_dim(array, start,
    size)`: the subscript, its array and start (nodes of the source), the size as
    source (the module constant it equals where the bounds name one)."""

    node: cst.Subscript
    array: cst.Name
    start: cst.BaseExpression
    size: str


@dataclass(frozen=True)
class Blocks:
    """The blocks a step takes by the loop index, and the premise that fails for the
    first block read by it that may not be taken so ("" where none fails)."""

    blocks: tuple[Block, ...] = ()
    doubt: str = ""


NO_BLOCKS = Blocks()


def batch_blocks(ctx: ModuleContext, loop: Loop, step: list[Stmt], index: str) -> Blocks:
    """The blocks of JAX arrays that `step` (statements of `loop`'s body) slices with the
    loop variable `index`."""
    blocks: list[Block] = []
    for stmt in step:
        for sub in walk(stmt.node, _own_scope):
            if type(sub) is not cst.Subscript or not _sliced(sub, index):
                continue
            if model(ctx).value_of(stmt, sub.value).kind is not Kind.ARRAY:
                continue  # a NumPy array or a list: `fori.index_doubts`, the jit plan
            block = _block(ctx, loop, sub, index)
            if isinstance(block, str):
                return Blocks(doubt=block)
            blocks.append(block)
    return Blocks(tuple(blocks)) if blocks else NO_BLOCKS


def block_reads(blocks: tuple[Block, ...]) -> set[int]:
    """The ids of the loop variable's names that the blocks read (their bounds)."""
    found: set[int] = set()
    for block in blocks:
        part = block.node.slice[0].slice
        assert type(part) is cst.Slice
        found |= {id(n) for bound in (part.lower, part.upper) if bound for n in read_names(bound)}
    return found


def _own_scope(node: cst.CSTNode) -> bool:
    """A lambda or a comprehension: its names (an `i` of its own) are not the loop's, and
    its slices stay as they are."""
    return type(node) in _SCOPES


_SCOPES = (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _sliced(sub: cst.Subscript, index: str) -> bool:
    """`x[lo:hi]`, one slice without a step, whose bounds read `index`."""
    if len(sub.slice) != 1 or type(sub.slice[0].slice) is not cst.Slice:
        return False
    part = sub.slice[0].slice
    bounds = [b for b in (part.lower, part.upper) if b is not None]
    return any(n.value == index for b in bounds for n in read_names(b))


def _block(ctx: ModuleContext, loop: Loop, sub: cst.Subscript, index: str) -> Block | str:
    code = ctx.code(sub)
    part = sub.slice[0].slice
    assert type(part) is cst.Slice
    array = sub.value
    if type(array) is not cst.Name:
        return f"`{code}` slices an array that is not a plain name"
    body = ctx.graph.loop_stmts(loop.id)
    if any(array.value in s.defs | s.mutates for s in body):
        return f"the loop rebinds `{array.value}`, which `{code}` slices"
    lower = _linear(ctx, part.lower, index) if part.lower is not None else None
    upper = _linear(ctx, part.upper, index) if part.upper is not None else None
    if part.step is not None or lower is None or upper is None or lower[0] != upper[0]:
        return (
            f"`{code}` is not a block of one size at every index (its bounds are not "
            "`i * B` and `(i + 1) * B` of integer constants)"
        )
    size = upper[1] - lower[1]
    if size <= 0:
        return f"`{code}` is empty at every index"
    first_last = _indices(ctx, loop)
    if first_last is None:
        return "the loop's range is not of integer literals or module constants"
    rows = _rows(ctx, body, array.value)
    if rows is None:
        return (
            f"cannot prove how many rows `{array.value}` has: a batch `{code}` past its end "
            "would come out short, where `lax.dynamic_slice_in_dim` shifts it back to full size"
        )
    for i in first_last:
        start = lower[0] * i + lower[1]
        if start < 0:
            return (
                f"`{code}` starts before the first row of `{array.value}` at `{index} = {i}` "
                "(a Python slice with a negative bound counts from the end, and "
                "`lax.dynamic_slice_in_dim` takes a full batch of other rows)"
            )
        if start + size > rows:
            return (
                f"`{code}` runs past the {rows} rows of `{array.value}` at `{index} = {i}` (a "
                "ragged batch, which `lax.dynamic_slice_in_dim` would shift back to full size)"
            )
    return Block(sub, array, part.lower, _size_text(ctx, part, size))  # type: ignore[arg-type]  # lower: checked


def _linear(ctx: ModuleContext, expr: cst.BaseExpression, index: str) -> tuple[int, int] | None:
    """`expr` as `slope * index + offset` over integer literals and module constants."""
    if type(expr) is cst.Integer:
        return 0, int(expr.evaluated_value)
    if type(expr) is cst.Name:
        if expr.value == index:
            return 1, 0
        value = _constant(ctx, expr.value)
        return None if value is None else (0, value)
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        inner = _linear(ctx, expr.expression, index)
        return None if inner is None else (-inner[0], -inner[1])
    if type(expr) is not cst.BinaryOperation:
        return None
    left, right = _linear(ctx, expr.left, index), _linear(ctx, expr.right, index)
    if left is None or right is None:
        return None
    op = type(expr.operator)
    if op is cst.Add:
        return left[0] + right[0], left[1] + right[1]
    if op is cst.Subtract:
        return left[0] - right[0], left[1] - right[1]
    if op is cst.Multiply and (left[0] == 0 or right[0] == 0):
        return left[0] * right[1] + right[0] * left[1], left[1] * right[1]
    return None


def _constant(ctx: ModuleContext, name: str) -> int | None:
    literal = module_constant(ctx, name)
    return int(literal.evaluated_value) if type(literal) is cst.Integer else None


def _indices(ctx: ModuleContext, loop: Loop) -> tuple[int, int] | None:
    """The first and last index of `for i in range(a[, b])` of integer constants that
    runs at least once."""
    counted = counted_for(loop.node)
    if counted is None:
        return None
    values = [_linear(ctx, b, "") for b in counted[1]]
    if any(v is None or v[0] != 0 for v in values):
        return None
    ints = [v[1] for v in values if v is not None]
    low, high = (0, ints[0]) if len(ints) == 1 else (ints[0], ints[1])
    return (low, high - 1) if high > low else None


def _rows(ctx: ModuleContext, body: list[Stmt], name: str) -> int | None:
    """The length along axis 0 of the array `name` holds when the loop starts."""
    found = carry_types(ctx, body, (name,), iterate=False).entry.get(name)
    return found.shape[0] if isinstance(found, ArrayType) and found.shape else None


def _size_text(ctx: ModuleContext, part: cst.Slice, size: int) -> str:
    """The module constant of the bounds whose value is the block's size, else the
    number."""
    for bound in (part.lower, part.upper):
        for name in read_names(bound) if bound is not None else ():
            if _constant(ctx, name.value) == size:
                return name.value
    return str(size)
