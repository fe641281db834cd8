"""Names proven to hold no array leaf: what `eqx.filter_jit` never donates.

`eqx.filter_jit` traces (and donates) only the array leaves of its arguments; every
other leaf is static (`overlays/equinox.py` `DONATES_ONLY_ARRAYS`). A plain name holds no
array leaf when every definition of it that may reach the statement is one of:

- a `def` of the scope (or of the module, when that is the only binding of the name in
  the module), or `name = lambda ...`: a function is a leaf, never an array,
  whatever it closes over (a bound method of an `eqx.Module` is a pytree: never this);
- `name = f(...)` with `f` a library constructor whose class an overlay lists as holding
  no array (`overlays.NO_ARRAY_CLASSES`: an optax `GradientTransformation`, a pair of
  functions).

Anything else is unknown.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.values.library import constructed_class


def holds_no_array(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> bool:
    """Whether `expr`, read at `stmt`, is a name proven to hold no array leaf."""
    if type(expr) is not cst.Name:
        return False
    defs = ctx.graph.reaching_defs(stmt, expr.value)
    if not defs:
        return _module_function(ctx, stmt, expr.value)
    return all(_no_array_def(ctx, d, expr.value) for d in defs)


def _module_function(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """A module function the scope reads: its `def` is the only binding of `name`."""
    fn = ctx.graph.resolve_function(name, stmt.scope)
    if fn is None or fn.scope != MODULE or fn.node.decorators:
        return False
    return [s.id for s in ctx.graph.stmts if name in s.defs] == [fn.header]


def _no_array_def(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    node = stmt.node
    if type(node) is cst.FunctionDef:
        return node.name.value == name and not node.decorators
    assign = stmt.assign
    if assign is None or len(assign.targets) != 1 or type(assign.targets[0].target) is not cst.Name:
        return False
    value = assign.value
    if type(value) is cst.Lambda:
        return True
    if type(value) is not cst.Call:
        return False
    return constructed_class(ctx.qualify, value) in overlays.NO_ARRAY_CLASSES
