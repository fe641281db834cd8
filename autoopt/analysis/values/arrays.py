"""Which expressions are provably one array (not a tuple, list or Python scalar).

`jax.vmap` stacks every leaf of a function's output separately, while
`jnp.stack` of per-example tuples builds one array: a rewrite between the two
is exact only when each example yields one array. The proof is syntactic and
conservative: array-returning `jax.numpy`/`jax.nn`/`jax.random` calls, array
methods, operators and indexing on arrays, and names bound once to such values.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_at_update
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.library import numpy_returns_array

_DEPTH = 6


def is_array(
    ctx: ModuleContext,
    at: Stmt,
    expr: cst.BaseExpression,
    known: frozenset[str],
    depth: int = 0,
    assumed: frozenset[str] = frozenset(),
) -> bool:
    """Whether `expr`, evaluated at statement `at`, is one array (`known`: names that
    are on entry; `assumed`: names taken as arrays while their definitions are checked).

    This stays syntactic rather than asking the value model (`Value.array`): it answers
    under an assumption (that the `known` names, a loop's per-item slice or a helper's
    parameters, are arrays), which the model, a fixpoint of what reaches each name in
    the module, cannot be asked; and it proves no shape or dtype, so no `ArrayType`."""
    if depth > _DEPTH:
        return False
    rec = lambda e: is_array(ctx, at, e, known, depth + 1, assumed)  # noqa: E731
    if type(expr) is cst.Name:
        return expr.value in assumed or _name_is_array(ctx, at, expr.value, known, depth, assumed)
    if type(expr) is cst.BinaryOperation:
        return rec(expr.left) or rec(expr.right)
    if type(expr) is cst.UnaryOperation:
        return rec(expr.expression)
    if type(expr) is cst.Subscript:
        return rec(expr.value)
    if type(expr) is cst.Attribute:
        return expr.attr.value in jax_api.ARRAY_ATTRS and rec(expr.value)
    if type(expr) is cst.IfExp:
        return rec(expr.body) and rec(expr.orelse)
    if type(expr) is cst.Call:
        return _call_is_array(ctx, at, expr, known, depth, assumed)
    return False


def _name_is_array(
    ctx: ModuleContext,
    at: Stmt,
    name: str,
    known: frozenset[str],
    depth: int,
    assumed: frozenset[str],
) -> bool:
    """Every definition of `name` reaching `at` assigns an array, and, unless `name` is
    `known` on entry, one of them runs on every path to `at`."""
    graph = ctx.graph
    reaching = graph.reaching_defs(at, name)
    if name not in known and not any(graph.dominates(d, at) for d in reaching):
        return False
    inner = assumed | {name}
    for d in reaching:
        value = _assigned_value(d.node, name)
        if value is None or not is_array(ctx, d, value, known, depth + 1, inner):
            return False
    return True


def _assigned_value(node: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """What `name = value` (or `a, name = x, value`) assigns to `name`."""
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    if type(target) is cst.Name:
        return value if target.value == name else None
    if not (type(target) is cst.Tuple and type(value) is cst.Tuple):
        return None
    if len(target.elements) != len(value.elements):
        return None
    for t, v in zip(target.elements, value.elements, strict=True):
        if type(t.value) is cst.Name and t.value.value == name:
            return None if type(v) is cst.StarredElement else v.value
    return None


def _call_is_array(
    ctx: ModuleContext,
    at: Stmt,
    call: cst.Call,
    known: frozenset[str],
    depth: int,
    assumed: frozenset[str],
) -> bool:
    qual = ctx.qualify(call.func) or ""
    if qual.startswith("jax.numpy."):
        return numpy_returns_array(qual.removeprefix("jax.numpy."), call)
    if qual.startswith(("jax.nn.", "jax.random.")):
        return not qual.startswith("jax.nn.initializers")
    func = call.func
    if is_at_update(func):  # `x.at[i].set(v)`: an array like `x`
        receiver = func.value.value.value  # type: ignore[attr-defined]  # is_at_update: x.at[i].set
        return is_array(ctx, at, receiver, known, depth + 1, assumed)
    if type(func) is cst.Attribute and func.attr.value in jax_api.ARRAY_METHODS:
        return is_array(ctx, at, func.value, known, depth + 1, assumed)
    if type(func) is cst.Name and not qual and depth < _DEPTH:
        target = ctx.graph.resolve_function(func.value, at.scope)
        if target is not None and not target.node.decorators:
            params = _array_params(ctx, at, target, call, known)
            return returns_one_array(ctx, target, params, depth + 2)
    return False


def _array_params(
    ctx: ModuleContext, at: Stmt, fn: Function, call: cst.Call, known: frozenset[str]
) -> frozenset[str]:
    """Parameters of `fn` that receive a provable array at `call` (positional only)."""
    names = set()
    for param, arg in zip(fn.params, call.args, strict=False):
        if arg.keyword is not None or arg.star:
            break
        if is_array(ctx, at, arg.value, known, _DEPTH - 1):
            names.add(param)
    return frozenset(names)


def returns_one_array(
    ctx: ModuleContext, fn: Function, known: frozenset[str], depth: int = 0
) -> bool:
    """Every `return` of `fn` gives one array (`known`: parameters that are arrays)."""
    returns = [s for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    return bool(returns) and all(
        r.node.value is not None and is_array(ctx, r, r.node.value, known, depth)  # type: ignore[attr-defined]  # a Return
        for r in returns
    )


def annotated_array(fn: Function, param: str) -> bool:
    """`param: jax.Array` (or `jnp.ndarray`) in `fn`'s signature."""
    for p in (*fn.node.params.params, *fn.node.params.kwonly_params):
        if p.name.value == param and p.annotation is not None:
            text = cst.Module([]).code_for_node(p.annotation.annotation)
            return text.endswith(("Array", "ndarray"))
    return False
