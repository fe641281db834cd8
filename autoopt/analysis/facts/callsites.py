"""What the argument passed at a call site is: a constant, a per-iteration value, an array."""

from __future__ import annotations

from enum import Enum

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_constant
from autoopt.analysis.core.graph import CallSite, Function, Stmt
from autoopt.analysis.facts.tracing import dynamic_names
from autoopt.analysis.values.library import constructed_class
from autoopt.analysis.values.model import assigned_value


class ArgKind(str, Enum):
    CONSTANT = "constant"  # hashable and the same on every call
    VARYING = "varying"  # changes from one loop iteration to the next
    UNHASHABLE = "unhashable"  # a list, dict or set literal
    ARRAY = "array"  # computed by JAX
    UNKNOWN = "unknown"


def classify(
    ctx: ModuleContext, site: CallSite, expr: cst.BaseExpression, depth: int = 0
) -> ArgKind:
    """How the value of `expr` behaves as a (static) argument at this call site."""
    if type(expr) in (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp):
        return ArgKind.UNHASHABLE
    names = dynamic_names(expr)
    written = set()
    for loop in site.stmt.loops:
        written |= ctx.graph.written_in_loop(loop)
    if names & written:
        return ArgKind.VARYING
    if is_constant(expr):
        return ArgKind.CONSTANT
    if type(expr) is cst.Call and (ctx.qualify(expr.func) or "").startswith("jax."):
        return ArgKind.ARRAY
    if type(expr) is cst.Name:
        return _kind_of_name(ctx, site.stmt, expr.value, depth)
    return ArgKind.UNKNOWN


def _kind_of_name(ctx: ModuleContext, stmt: Stmt, name: str, depth: int) -> ArgKind:
    """A name is constant if every definition that reaches the call is a literal;
    a parameter of the calling function is followed to that function's callers."""
    graph = ctx.graph
    defs = graph.reaching_defs(stmt, name)
    caller = graph.functions.get(stmt.scope)
    if not defs and caller is not None and name in caller.params:
        return _kind_of_parameter(ctx, caller, name, depth)
    if not defs:
        defs = [s for s in graph.scope_stmts("<module>") if name in s.defs]
    kinds = {_kind_of_def(ctx, d, name) for d in defs}
    if len(kinds) == 1:
        return kinds.pop()
    if ArgKind.ARRAY in kinds:
        return ArgKind.ARRAY
    return ArgKind.UNKNOWN


def _kind_of_parameter(ctx: ModuleContext, fn: Function, name: str, depth: int) -> ArgKind:
    sites = ctx.graph.call_sites(fn)
    if depth >= 3 or not sites:
        return ArgKind.UNKNOWN
    index = fn.params.index(name)
    kinds = set()
    for site in sites:
        expr = site.argument(index, name)
        kinds.add(ArgKind.UNKNOWN if expr is None else classify(ctx, site, expr, depth + 1))
    return kinds.pop() if len(kinds) == 1 else ArgKind.UNKNOWN


def _kind_of_def(ctx: ModuleContext, stmt: Stmt, name: str) -> ArgKind:
    node = stmt.node
    if type(node) is cst.Assign and len(node.targets) == 1:
        value = node.value
        if is_constant(value):
            return ArgKind.CONSTANT
        if type(value) in (cst.List, cst.Dict, cst.Set):
            return ArgKind.UNHASHABLE
        if type(value) is cst.Call and (ctx.qualify(value.func) or "").startswith("jax."):
            return ArgKind.ARRAY
        if type(value) is cst.Call and _static_object(ctx, stmt, value):
            return ArgKind.CONSTANT
    return ArgKind.UNKNOWN


def _static_object(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    """A constructor of an object jit may keep static (`optax.adam(...)`), run by `stmt`:
    hashable, and the one object every call passes where this binding reaches it."""
    cls = constructed_class(ctx.qualify, call, lambda n: assigned_value(ctx, stmt, n))
    return cls in overlays.STATIC_CLASSES
