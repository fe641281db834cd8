"""Host effects a traced computation performs every time it runs.

`jax.debug.print`, `jax.debug.callback`, `jax.pure_callback` and `io_callback` are
staged into the computation they are traced in: jit runs them on every call, which is
why purity (`analysis/facts/purity.py`) lets `jax.debug.print` through. A rewrite that
changes how often, or in which grouping, a traced body runs changes what they do:
`jax.checkpoint` recomputes the body on the backward pass (every line printed again),
`jax.vmap` runs every example's effects in one computation, grouped by statement and
in no guaranteed order.

`traced_effects` proves a function has none: no name in it (called, handed to a
transform or to `functools.partial`, inside a lambda, a parameter's default) is one of
the JAX calls listed in `overlays/jax.py` (`TRACED_EFFECTS`) or a module variable bound
to an expression naming one (`emit = partial(jax.debug.print, ...)`, `LOG = [...]`),
and none of the functions it names has one,
transitively: its nested functions, the module's, and those of other files of the
project (`analysis/core/project.py`). Calls of code autoopt cannot see are purity's
concern: a rule that needs "no host effect" asks both.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs
from autoopt.analysis.core.graph import MODULE, Function
from autoopt.analysis.core.project import project_function, project_module
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
        bound = _bound_effect(ctx, fn, node, qual)
        if bound:
            reasons.append(f"calls `{ctx.code(node)}`, bound to `{bound}`")
            continue
        for other, callee in _functions(ctx, fn, node, qual):
            if _key(other, callee) in seen:
                continue
            inner = _effects(other, callee, seen)
            if inner:
                reasons.append(_through(ctx, node, callee, inner[0]))
                break
    return list(dict.fromkeys(reasons))


def _through(ctx: ModuleContext, node: cst.CSTNode, callee: Function, inner: str) -> str:
    """A reason reached through `node`: a function it calls, or a method of its class."""
    if callee.is_method:
        return f"uses `{ctx.code(node)}`, whose `{callee.name}` {inner}"
    return f"calls `{ctx.code(node)}`, which {inner}"


def _functions(
    ctx: ModuleContext, fn: Function, node: cst.CSTNode, qual: str
) -> list[tuple[ModuleContext, Function]]:
    """The code `node` names: a function, or every method of a class of the module
    (`Block(w)(h)` runs `Block.__init__` and `Block.__call__`)."""
    found = _function(ctx, fn, node, qual)
    if found is not None:
        return [found]
    name = node.value if type(node) is cst.Name and not qual else None
    if name not in ctx.graph.classes or name in _locals(ctx, fn):
        return []
    return [(ctx, m) for m in ctx.graph.functions.values() if m.scope == name]


def _named(ctx: ModuleContext, fn: Function) -> list[cst.CSTNode]:
    """Every name and attribute chain the function evaluates, in lambdas and in the
    defaults of its parameters too (a nested function counts where it is named), and
    its decorators: the name is bound to what they return, a wrapper that runs too."""
    exprs: list[cst.CSTNode] = [fn.node.params, *(d.decorator for d in fn.node.decorators)]
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        exprs += evaluated_exprs(stmt.node)
    return [n for expr in exprs for n in _names_in(expr)]


def _names_in(expr: cst.CSTNode) -> list[cst.CSTNode]:
    """The names and attribute chains in `expr`, not the attribute names inside them."""
    nodes = [n for n in walk(expr) if type(n) in _NAMES]
    attrs = {id(n.attr) for n in nodes if type(n) is cst.Attribute}
    return [n for n in nodes if id(n) not in attrs]


def _bound_effect(ctx: ModuleContext, fn: Function, node: cst.CSTNode, qual: str) -> str | None:
    """The effect a module-level variable `node` is bound to (`emit = jax.debug.print`,
    `LOGGERS = [partial(jax.debug.print, ...)]`), of this module or another of the
    project, when it is no name of `fn`'s own."""
    if type(node) is cst.Name and not qual:
        if node.value in _locals(ctx, fn) or ctx.graph.resolve_function(node.value, fn.qualname):
            return None
        return ctx.per_module(_effect_bindings).get(node.value)
    module, _, name = qual.rpartition(".")
    other = project_module(ctx, module) if module else None
    return other.per_module(_effect_bindings).get(name) if other is not None else None


def _effect_bindings(ctx: ModuleContext) -> dict[str, str]:
    """Module-level names bound to an expression that names a traced effect -> it."""
    found: dict[str, str] = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        for expr in evaluated_exprs(stmt.node) if type(stmt.node) is not cst.FunctionDef else ():
            for name in _names_in(expr):
                if (ctx.qualify(name) or "") in jax_api.TRACED_EFFECTS:  # type: ignore[arg-type]
                    found.update(dict.fromkeys(stmt.defs, ctx.code(name)))
    return found


def _function(
    ctx: ModuleContext, fn: Function, node: cst.CSTNode, qual: str
) -> tuple[ModuleContext, Function] | None:
    """The function `node` names: of this module (seen from `fn`), or of another file
    of the project."""
    if type(node) is cst.Name and not qual:
        if node.value in _locals(ctx, fn):
            return None  # a parameter or a local, even of a module function's name
        local = ctx.graph.resolve_function(node.value, fn.qualname)
        return (ctx, local) if local is not None else None
    return project_function(ctx, qual) if qual else None


def _locals(ctx: ModuleContext, fn: Function) -> set[str]:
    """The names `fn` binds itself, nested functions aside."""
    own = {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs} | set(fn.params)
    return own - {n for n in own if f"{fn.qualname}.{n}" in ctx.graph.functions}


def _key(ctx: ModuleContext, fn: Function) -> str:
    return f"{ctx.path}::{fn.qualname}"
