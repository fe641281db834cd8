"""The batches a step takes by its traced index, as code (rewrite/batches.py)."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.plans.batches import batch_blocks
from autoopt.rewrite.batches import batch_imports, on_device

from ..analysis.helpers import context

CODE = """
import numpy as np
import jax.numpy as jnp
from jax import lax

B = 4


def main():
    x = jnp.asarray(np.zeros((16, 2)))
    total = jnp.zeros(2)
    for i in range(4):
        total = total + (x[i * B : (i + 1) * B]).sum(0) + x[i]
    return total
"""


def _line(code: str = CODE) -> tuple[str, tuple]:
    ctx = context(code)
    loop = ctx.graph.loops[0]
    step = [s for s in ctx.graph.loop_stmts(loop.id) if s.id != loop.header]
    blocks = batch_blocks(ctx, loop, step, "i").blocks
    line = loop.node.body.body[0]
    assert type(line) is cst.SimpleStatementLine
    return ctx.module.code_for_node(on_device(ctx, line, blocks)), batch_imports(ctx, blocks)


def test_a_block_becomes_a_dynamic_slice_its_parentheses_kept() -> None:
    code, imports = _line()
    assert code == "total = total + (lax.dynamic_slice_in_dim(x, i * B, B)).sum(0) + x[i]\n"
    assert imports == ()


def test_the_spelling_imports_jax_where_the_module_does_not_bind_it() -> None:
    code, imports = _line(CODE.replace("from jax import lax\n", ""))
    assert "(jax.lax.dynamic_slice_in_dim(x, i * B, B))" in code
    assert [i.module for i in imports] == ["jax"]
