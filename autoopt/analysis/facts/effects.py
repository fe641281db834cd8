"""Host effects a traced computation performs every time it runs.

`jax.debug.print`, `jax.debug.callback`, `jax.pure_callback` and `io_callback` are
staged into the computation they are traced in: jit runs them on every call, which is
why purity (`analysis/facts/purity.py`) lets `jax.debug.print` through. A rewrite that
changes how often, or in which grouping, a traced body runs changes what they do:
`jax.checkpoint` recomputes the body on the backward pass (every line printed again),
`jax.vmap` runs every example's effects in one computation, grouped by statement and
in no guaranteed order.

`traced_effects` proves a function has none: no name in it (called, handed to a
transform or to `functools.partial`, inside a lambda) is one of the JAX calls listed
in `overlays/jax.py` (`TRACED_EFFECTS`), and none of the functions it names has one,
transitively: its nested functions, the module's, and those of other files of the
project (`analysis/core/project.py`). Calls of code autoopt cannot see are purity's
concern: a rule that needs "no host effect" asks both.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs
from autoopt.analysis.core.graph import Function
from autoopt.analysis.core.project import project_function
from autoopt.analysis.core.walk import walk
from autoopt.analysis.overlays import jax as jax_api

_NAMES = (cst.Name, cst.Attribute)


def traced_effects(ctx: ModuleContext, fn: Function) -> list[str]:
    """Why `fn` performs host effects each time its traced computation runs, one
    reason each (`prints (`jax.debug.print`)`, `calls `log`, which prints ...`); empty
    when it provably has none (once per function)."""
    return ctx.per_function(_effects, fn)


def _effects(ctx: ModuleContext, fn: Function, seen: frozenset[str] = frozenset()) -> list[str]:
    seen = seen | {_key(ctx, fn)}
    reasons: list[str] = []
    for node in _named(ctx, fn):
        qual = ctx.qualify(node) or ""  # type: ignore[arg-type]
        if qual in jax_api.TRACED_EFFECTS:
            reasons.append(f"{jax_api.TRACED_EFFECTS[qual]} (`{qual}`)")
            continue
        found = _function(ctx, fn, node, qual)
        if found is None or _key(*found) in seen:
            continue
        other, callee = found
        inner = _effects(other, callee, seen)
        if inner:
            reasons.append(f"calls `{ctx.code(node)}`, which {inner[0]}")
    return list(dict.fromkeys(reasons))


def _named(ctx: ModuleContext, fn: Function) -> list[cst.CSTNode]:
    """Every name and attribute chain the function evaluates, in lambdas too (a nested
    function counts where it is named)."""
    found: list[cst.CSTNode] = []
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for expr in evaluated_exprs(stmt.node):
            nodes = [n for n in walk(expr) if type(n) in _NAMES]
            attrs = {id(n.attr) for n in nodes if type(n) is cst.Attribute}
            found += [n for n in nodes if id(n) not in attrs]
    return found


def _function(
    ctx: ModuleContext, fn: Function, node: cst.CSTNode, qual: str
) -> tuple[ModuleContext, Function] | None:
    """The function `node` names: of this module (seen from `fn`), or of another file
    of the project."""
    if type(node) is cst.Name:
        local = ctx.graph.resolve_function(node.value, fn.qualname)
        if local is not None:
            return ctx, local
    return project_function(ctx, qual) if qual else None


def _key(ctx: ModuleContext, fn: Function) -> str:
    return f"{ctx.path}::{fn.qualname}"
