"""Questions rules ask about one variable in one loop: who writes it, who reads it."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.overlays.jax import STATIC_ATTRS
from autoopt.analysis.values import ints


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


def entry_def(ctx: ModuleContext, loop: Loop, name: str, stmt: Stmt) -> Stmt | None:
    """The one definition of `name`, other than `stmt`, that reaches `stmt`, when it runs
    before `loop` on every path."""
    graph = ctx.graph
    entry = [d for d in graph.reaching_defs(stmt, name) if d is not stmt]
    header = graph.stmts[loop.header]
    return entry[0] if len(entry) == 1 and graph.dominates(entry[0], header) else None


def reads_only_shape(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """Every read of `name` at `stmt` (a simple statement or a `for` header) is `len(name)`
    or `name.shape` (`.ndim`, `.dtype`, `.size`): a Python value that keeps no reference
    to the array."""
    node = stmt.node
    part = node.iter if type(node) is cst.For else node
    if isinstance(part, cst.BaseCompoundStatement):
        return False
    builtin_len = ints.builtin(ctx, "len")
    shape_reads: set[int] = set()
    for inner in walk(part):
        if type(inner) is cst.Attribute and inner.attr.value in STATIC_ATTRS:
            shape_reads.add(id(inner.value))
        elif builtin_len and type(inner) is cst.Call and _is_name(inner.func, "len"):
            shape_reads.update(id(a.value) for a in inner.args)
    reads = [n for n in read_names(part) if n.value == name]
    return all(id(n) in shape_reads for n in reads)


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return type(node) is cst.Name and node.value == name
