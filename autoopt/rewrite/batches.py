"""Take a step's batches by its traced index (plan: analysis/plans/batches.py).

    xb = x_dev[i * BATCH : (i + 1) * BATCH]

becomes, in the step,

    xb = jax.lax.dynamic_slice_in_dim(x_dev, i * BATCH, BATCH)
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.plans.batches import Block
from autoopt.model import RequireImport
from autoopt.rewrite.spell import spell

_DYNAMIC_SLICE = "jax.lax.dynamic_slice_in_dim"


def batch_imports(ctx: ModuleContext, blocks: tuple[Block, ...]) -> tuple[RequireImport, ...]:
    """The imports the dynamic slices need, none without blocks."""
    return spell(ctx, _DYNAMIC_SLICE)[1] if blocks else ()


def on_device(
    ctx: ModuleContext, line: cst.SimpleStatementLine, blocks: tuple[Block, ...]
) -> cst.SimpleStatementLine:
    """`line` with each of its blocks taken by `lax.dynamic_slice_in_dim`."""
    if not blocks:
        return line
    function = spell(ctx, _DYNAMIC_SLICE)[0]
    taken = _Taken(ctx, {id(b.node): b for b in blocks}, function)
    changed = line.visit(taken)
    assert type(changed) is cst.SimpleStatementLine
    return changed


class _Taken(cst.CSTTransformer):
    def __init__(self, ctx: ModuleContext, blocks: dict[int, Block], function: str) -> None:
        self.ctx = ctx
        self.blocks = blocks
        self.function = function

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        block = self.blocks.get(id(original_node))
        if block is None:
            return updated_node
        array, start = self.ctx.code(block.array), self.ctx.code(block.start)
        call = cst.parse_expression(f"{self.function}({array}, {start}, {block.size})")
        return call.with_changes(lpar=original_node.lpar, rpar=original_node.rpar)
