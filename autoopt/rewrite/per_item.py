"""Vmap a per-item body as one compiled function (plan: analysis/plans/per_item.py).

    fits = []
    for i in range(N):
        xb, yb = resample(keys[i], x, y)
        fits.append(huber_line(xb, yb))
    fits = jnp.stack(fits)

becomes, above the function that holds the loop,

    @jax.jit
    @functools.partial(jax.vmap, in_axes=(0, None, None))
    def _main_per_item(key, x, y):
        xb, yb = resample(key, x, y)
        return huber_line(xb, yb)

and in its place `fits = _main_per_item(keys, x, y)`. The body's lines move
unchanged, comments included. `extracted` gives the program with the function in
place, undecorated and called once per item by the loop, for the jit plan to judge.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.plans.per_item import ItemBody, PerItem
from autoopt.model import Edit, InsertBefore, Replace, RequireImport
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.helpers import parse_function, spaced, top_statement
from autoopt.rewrite.jit import fresh_name
from autoopt.rewrite.spell import spell


def item_name(ctx: ModuleContext, p: PerItem, taken: list[str]) -> str:
    """`_<function>_per_item` (`_per_item` in module code), bound nowhere in the module
    and not among `taken` (the names of the other per-item functions of the run)."""
    scope = p.at.scope.rsplit(".", 1)[-1]
    base = "_per_item" if p.at.scope == MODULE else f"_{scope}_per_item"
    return fresh_name(ctx, base, taken)


def decorators(
    ctx: ModuleContext, body: ItemBody
) -> tuple[tuple[str, ...], tuple[RequireImport, ...]]:
    """`jax.jit` over `jax.vmap`, with `in_axes` when some argument is the same for every
    item."""
    jit, imports = ctx.ref("jax.jit")
    vmap, more = spell(ctx, "jax.vmap")
    imports += more
    axes = ["0"] * len(body.sources) + ["None"] * (len(body.params) - len(body.sources))
    if "None" not in axes:
        return (jit, vmap), imports
    partial, more = ctx.ref("functools.partial")
    return (jit, f"{partial}({vmap}, in_axes=({', '.join(axes)}))"), imports + more


def item_edits(
    ctx: ModuleContext,
    p: PerItem,
    body: ItemBody,
    name: str,
    args: tuple[str, ...],
    decorated: tuple[str, ...],
) -> list[Edit]:
    """The decorated function above the loop's top-level statement, the stack replaced by
    its call on `args`, the list and the loop removed (their comments kept)."""
    definition = item_function(ctx, p, body, name, decorated)
    call = cst.parse_expression(f"{name}({', '.join(args)})")
    edits: list[Edit] = [InsertBefore(_anchor(ctx, p), (definition,))]
    edits.append(Replace(p.stack, lambda _n: call))
    edits += [Replace(node, lambda _n: cst.RemovalSentinel.REMOVE) for node in p.removed]
    if p.leading:
        edits.append(keep_comments(ctx, p))
    return edits


def item_function(
    ctx: ModuleContext, p: PerItem, body: ItemBody, name: str, decorated: tuple[str, ...] = ()
) -> cst.FunctionDef:
    """`def name(params): <lines>; return <value>`, spaced for its place."""
    above = "".join(f"@{d}\n" for d in decorated)
    template = parse_function(f"{above}def {name}({', '.join(body.params)}):\n    return 0\n")
    returned = cst.Return(body.value)
    block = template.body.with_changes(body=[*body.lines, cst.SimpleStatementLine([returned])])
    return spaced(ctx, template.with_changes(body=block), _anchor(ctx, p))


def extracted(ctx: ModuleContext, p: PerItem, body: ItemBody, name: str) -> cst.Module:
    """The module with the function undecorated above the loop and the loop (or the
    comprehension) calling it once per item."""
    call = f"{name}({', '.join(body.items)})"
    edits: list[Edit] = [InsertBefore(_anchor(ctx, p), (item_function(ctx, p, body, name),))]
    if p.removed:
        loop = p.removed[-1]
        assert type(loop) is cst.For
        line = loop.body.body[-1]
        appended = cst.parse_statement(f"{ctx.code(line.body[0].value.func)}({call})\n")  # type: ignore[union-attr]  # the append line
        edits.append(
            Replace(loop, lambda n: n.with_changes(body=n.body.with_changes(body=[appended])))
        )
    else:
        edits.append(Replace(p.value, lambda _n: cst.parse_expression(call)))
    return apply_edits(ctx.module, edits, ctx.ancestors)


def keep_comments(ctx: ModuleContext, p: PerItem) -> Replace:
    """The comments above the removed list and loop go above the stack's statement."""
    anchor = _stack_statement(ctx, p).anchor
    return Replace(
        anchor,
        lambda n: n.with_changes(leading_lines=[*p.leading, *n.leading_lines]),
    )


def _anchor(ctx: ModuleContext, p: PerItem) -> cst.CSTNode:
    """The statement the function goes above: the loop's top-level function (or class);
    in module code, the outermost loop holding the stack, or its own statement."""
    stmt = _stack_statement(ctx, p)
    if stmt.scope == MODULE and not stmt.loops:
        return stmt.anchor
    return top_statement(ctx, stmt)


def _stack_statement(ctx: ModuleContext, p: PerItem):
    return next(s for s in ctx.graph.stmts if any(c is p.stack for c in s.calls))
