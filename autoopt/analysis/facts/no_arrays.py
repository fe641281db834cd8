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

An attribute of such a name (`opt.update`) holds none either: it is a field of that
object or a method bound to it.

Anything else is unknown.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.values.library import constructed_class


def holds_no_array(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> bool:
    """Whether `expr`, read at `stmt`, is a name proven to hold no array leaf, or an
    attribute of a name proven to hold an object of `overlays.NO_ARRAY_CLASSES`."""
    if type(expr) is cst.Attribute and type(expr.value) is cst.Name:
        defs = ctx.graph.reaching_defs(stmt, expr.value.value)
        return bool(defs) and all(_lambda_or_object(ctx, d) == "object" for d in defs)
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
    return _lambda_or_object(ctx, stmt) in ("lambda", "object")


def _lambda_or_object(ctx: ModuleContext, stmt: Stmt) -> str:
    """ "lambda" for `name = lambda ...`, "object" for `name = f(...)` of a constructor
    of `overlays.NO_ARRAY_CLASSES`, else ""."""
    assign = stmt.assign
    if assign is None or len(assign.targets) != 1 or type(assign.targets[0].target) is not cst.Name:
        return ""
    value = assign.value
    if type(value) is cst.Lambda:
        return "lambda"
    if (
        type(value) is cst.Call
        and constructed_class(ctx.qualify, value) in overlays.NO_ARRAY_CLASSES
    ):
        return "object"
    return ""
