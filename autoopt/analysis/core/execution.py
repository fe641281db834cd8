"""How code runs: traced (under `jit` or another JAX transform) or eagerly, from Python.

The single authority for jit-ness. A function is *traced* when a tracing
transform decorates it (`@jax.jit`, `@partial(jax.jit, ...)`, `@nnx.jit`,
`@eqx.filter_jit`, `@jax.checkpoint`, ...), when its name is handed to one
(`jax.jit(f)`, `lax.scan(body, ...)`, `jax.grad(partial(loss, ...))`), or when
a traced function calls it. A scope *runs eagerly* when it is the module body,
or a plain function that an eagerly running scope calls directly. Everything
else (methods, functions only handed to code autoopt cannot see, library
functions nothing here calls) is neither: rules must not assume either mode.
Only qualified names count: a decorator named `timed_jit_stats` is not `jax.jit`.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function
from autoopt.analysis.core.jitted import is_escaping
from autoopt.analysis.core.walk import walk
from autoopt.analysis.overlays import absl as absl_api


@dataclass(frozen=True)
class Modes:
    """The scopes known to run traced and those known to run eagerly."""

    traced: frozenset[str]
    eager: frozenset[str]


def modes(ctx: ModuleContext) -> Modes:
    """Traced and eager scopes of the module, computed once."""
    return ctx.per_module(_modes)


def transform_of(ctx: ModuleContext, expr: cst.BaseExpression) -> str | None:
    """The tracing transform a decorator or callee spells, unwrapping `partial(...)` and
    `jit(...)`-with-options forms; None when it is not one."""
    if type(expr) is cst.Call:
        qual = ctx.qualify(expr.func) or ""
        if qual == "functools.partial" and expr.args:
            return transform_of(ctx, expr.args[0].value)
        return qual if qual in overlays.TRACING_TRANSFORMS else None
    qual = ctx.qualify(expr) or ""
    return qual if qual in overlays.TRACING_TRANSFORMS else None


def is_jit(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """Whether a decorator or callee spells a compiling transform (`jax.jit` and kin)."""
    return transform_of(ctx, expr) in overlays.JIT_SPELLINGS


def decorated_traced(ctx: ModuleContext, fn: Function) -> bool:
    return any(transform_of(ctx, d.decorator) for d in fn.node.decorators)


def runs_traced(ctx: ModuleContext, fn: Function) -> bool:
    """Whether `fn` runs under a transform on some path the module shows."""
    return fn.qualname in modes(ctx).traced


def runs_eagerly(ctx: ModuleContext, scope: str) -> bool:
    """Whether code in `scope` provably runs eagerly (from Python) on some path."""
    return scope in modes(ctx).eager


def unproven_callers(ctx: ModuleContext, scope: str) -> list[str]:
    """The scopes that call the function `scope` by name, where it has such callers, it
    does not run eagerly itself, and none of them provably does (methods, library code
    nothing here calls from Python, which its users may run under jit); empty otherwise."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or runs_eagerly(ctx, scope):
        return []
    callers = dict.fromkeys(site.stmt.scope for site in ctx.graph.call_sites(fn))
    return [] if any(runs_eagerly(ctx, c) for c in callers) else list(callers)


def only_called(ctx: ModuleContext, fn: Function) -> bool:
    """Every use of `fn` in the module is a direct call, and nothing outside can call it."""
    return ctx.per_function(_only_called, fn)


def _only_called(ctx: ModuleContext, fn: Function) -> bool:
    return not is_escaping(ctx, fn.name, fn.scope == MODULE)


def _modes(ctx: ModuleContext) -> Modes:
    graph = ctx.graph
    handed = _handed_to_transforms(ctx)
    traced = {
        q for q, fn in graph.functions.items() if decorated_traced(ctx, fn) or fn.name in handed
    }
    eager = {MODULE} | _entry_points(ctx)
    changed = True
    while changed:
        changed = False
        for qual, fn in graph.functions.items():
            callers = {site.stmt.scope for site in graph.call_sites(fn)}
            if qual not in traced and callers & traced:
                traced.add(qual)
                changed = True
            if qual not in eager and _eager_candidate(fn) and callers & eager:
                eager.add(qual)
                changed = True
    return Modes(frozenset(traced), frozenset(eager))


def _entry_points(ctx: ModuleContext) -> set[str]:
    """A module-level `main()` without parameters: the program's entry, by the contract
    that `--verify` runs it (docs/verification.md); and a module function a module-level
    call hands to a runner that calls it from Python (`app.run(main)` of absl:
    `overlays/absl.py`)."""
    fn = ctx.graph.functions.get("main")
    found = {"main"} if fn is not None and not fn.params and _eager_candidate(fn) else set()
    for stmt in ctx.graph.scope_stmts(MODULE):
        for call in stmt.calls:
            if ctx.qualify(call.func) not in absl_api.RUNS_EAGERLY or not call.args:
                continue
            first = call.args[0]
            entry = first.value if first.keyword is None and not first.star else None
            run = ctx.graph.functions.get(entry.value) if type(entry) is cst.Name else None
            if run is not None and run.scope == MODULE and _eager_candidate(run):
                found.add(run.qualname)
    return found


def _eager_candidate(fn: Function) -> bool:
    return not fn.is_method and not fn.node.decorators and fn.node.asynchronous is None


def _handed_to_transforms(ctx: ModuleContext) -> set[str]:
    """Names read anywhere inside the arguments of a tracing-transform call."""
    names: set[str] = set()
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            if transform_of(ctx, call.func) is None:
                continue
            for arg in call.args:
                names |= {n.value for n in walk(arg.value) if type(n) is cst.Name}
    return names
