"""Where a generated module-level helper goes, and the blank lines around it."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import MODULE, Stmt


def top_statement(ctx: ModuleContext, stmt: Stmt) -> cst.CSTNode:
    """The module-level statement that holds `stmt`: the helper goes just above it."""
    if stmt.scope == MODULE:
        return ctx.graph.loops[stmt.loops[0]].node
    scope = stmt.scope
    while ctx.graph.functions[scope].scope in ctx.graph.functions:
        scope = ctx.graph.functions[scope].scope
    fn = ctx.graph.functions[scope]
    return fn.node if fn.scope == MODULE else _class_node(ctx, fn.scope)


def _class_node(ctx: ModuleContext, qualname: str) -> cst.CSTNode:
    top = qualname.split(".")[0]
    return next(s for s in ctx.module.body if isinstance(s, cst.ClassDef) and s.name.value == top)


def spaced(ctx: ModuleContext, definition: cst.FunctionDef, anchor: cst.CSTNode) -> cst.FunctionDef:
    """Blank lines around the helper: two at module level (PEP 8), one in a block; a
    blank line holds no whitespace."""
    lines = 2 if any(anchor is s for s in ctx.module.body) else 1
    above = sum(isinstance(line, cst.EmptyLine) for line in getattr(anchor, "leading_lines", ()))
    blank = cst.EmptyLine(indent=False)  # empty, not the block's indentation
    body = definition.body.with_changes(footer=[blank] * lines)
    leading = [blank] * max(0, lines - above) if above or ctx.module.body[0] is not anchor else []
    return definition.with_changes(body=body, leading_lines=leading)
