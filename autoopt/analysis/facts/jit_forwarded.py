"""Is a parameter only handed on to jitted functions?

    @jax.jit
    def update(w, batch): ...

    def step(w, batch_next):
        w = update(w, batch_next)

`batch_next`, whatever it receives, is turned into traced arrays by `update`'s jit
already: a jit of `step` traces it at its own boundary instead, the same way (the same
pytree, the same dtypes), so what it receives is no premise of that jit. The premise:
every read of the parameter in the function is a whole argument (not starred) of a call
of a function of the module decorated with a bare `@jax.jit` (no static argument, where a
traced value would raise; not another library's jit, which splits its arguments its own
way), and the function never rebinds it.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Function, Stmt


def forwarded_to_jits(ctx: ModuleContext, fn: Function, param: str) -> bool:
    """Every read of `param` in `fn` is an argument of a call of a bare-jitted function."""
    stmts = list(ctx.graph.scope_stmts(fn.qualname))
    if any(param in s.defs or param in s.mutates for s in stmts):
        return False
    readers = [s for s in stmts if param in s.uses]
    return bool(readers) and all(_only_forwarded(ctx, s, param) for s in readers)


def _only_forwarded(ctx: ModuleContext, stmt: Stmt, param: str) -> bool:
    """Each `param` `stmt` reads is a whole, unstarred argument of a bare-jitted call."""
    handed = {
        id(arg.value)
        for call in stmt.calls
        if _bare_jitted(ctx, stmt, call)
        for arg in call.args
        if not arg.star
    }
    reads = [n for n in read_names(stmt.node) if n.value == param]
    return all(id(n) in handed for n in reads)


def _bare_jitted(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    """`call` calls a function of the module whose one decorator is a bare `jax.jit`."""
    if type(call.func) is not cst.Name:
        return False
    fn = ctx.graph.resolve_function(call.func.value, stmt.scope)
    decorators = fn.node.decorators if fn is not None else ()
    return len(decorators) == 1 and _bare_jit(ctx, decorators[0].decorator)


def _bare_jit(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """`jax.jit` itself (not `nnx.jit` or `eqx.filter_jit`, which split their arguments
    their own way)."""
    return type(expr) is not cst.Call and ctx.qualify(expr) == "jax.jit"
