"""The call that alone binds a name where a statement reads it."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt


def binding_call(ctx: ModuleContext, reader: Stmt, name: str) -> cst.Call | None:
    """The call `name = C(...)` that alone binds `name` where `reader` reads it, and
    dominates it; None for a parameter, a global or nonlocal, or anything else."""
    fn = ctx.graph.functions.get(reader.scope)
    if fn is not None and (name in fn.params or name in fn.globals | fn.nonlocals):
        return None
    binders = ctx.graph.reaching_defs(reader, name)
    if len(binders) != 1 or not ctx.graph.dominates(binders[0], reader):
        return None
    node = binders[0].node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    return value if type(target) is cst.Name and type(value) is cst.Call else None
