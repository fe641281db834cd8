"""Questions rules ask about one variable in one loop: who writes it, who reads it."""

from __future__ import annotations

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import Loop, Stmt


def other_readers(ctx: ModuleContext, loop: Loop, name: str, stmt: Stmt) -> list[Stmt]:
    """Statements of the loop, other than `stmt`, that read `name` (a `while` test too)."""
    return [s for s in ctx.graph.loop_stmts(loop.id) if name in s.uses and s is not stmt]


def only_writer(ctx: ModuleContext, loop: Loop, name: str, stmt: Stmt) -> bool:
    """Whether `stmt` is the one statement of the loop that binds or mutates `name`."""
    header = ctx.graph.stmts[loop.header]
    writers = [s for s in ctx.graph.loop_stmts(loop.id) if name in s.defs | s.mutates]
    return writers == [stmt] and name not in header.defs


def function_reading(ctx: ModuleContext, scope: str, name: str) -> str | None:
    """A function other than `scope` that reads `name` as a free (outer) variable."""
    for fn in ctx.graph.functions.values():
        if fn.qualname == scope:
            continue
        stmts = ctx.graph.scope_stmts(fn.qualname)
        local = {n for s in stmts for n in s.defs} | set(fn.params)
        free = name not in local and any(name in s.uses for s in stmts)
        if free or name in fn.globals | fn.nonlocals:
            return fn.name
    return None


def rebinds_outside(ctx: ModuleContext, scope: str, name: str) -> bool:
    """Whether `name` is declared `global`/`nonlocal` in `scope` (it outlives the call)."""
    fn = ctx.graph.functions.get(scope)
    return fn is not None and name in fn.globals | fn.nonlocals
