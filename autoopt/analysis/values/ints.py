"""Which expressions are provably Python integers: literals, integer module constants,
`range` loop variables, and integer operators over them (with `range` and `len` the
builtins, not names the module rebinds)."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Loop, Stmt

INT_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


def is_int(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression) -> bool:
    """Built from integer literals, integer module constants and `range` loop variables
    with integer operators."""
    if type(node) is cst.Integer:
        return True
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        return is_int(ctx, stmt, node.expression)
    if type(node) is cst.BinaryOperation and isinstance(node.operator, INT_OPS):
        return is_int(ctx, stmt, node.left) and is_int(ctx, stmt, node.right)
    if type(node) is not cst.Name:
        return False
    return range_loop(ctx, stmt, node.value) is not None or int_constant(ctx, stmt, node.value)


def int_constant(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """A module-level name bound once, to an integer literal, and never rebound (nor
    shadowed where `stmt` reads it)."""
    if shadowed(ctx, stmt.scope, name):
        return False
    return type(module_constant(ctx, name)) is cst.Integer


def shadowed(ctx: ModuleContext, scope: str, name: str) -> bool:
    """Whether `name` in `scope` is a local or parameter of that scope or of an enclosing
    function, not the module-level name (a class body hides names only from itself)."""
    graph = ctx.graph
    inner = True
    while scope != MODULE:
        fn = graph.functions.get(scope)
        if fn is not None and name in fn.params:
            return True
        if (inner or fn is not None) and any(name in s.defs for s in graph.scope_stmts(scope)):
            return True
        scope = fn.scope if fn is not None else scope.rpartition(".")[0] or MODULE
        inner = False
    return False


def module_constant(ctx: ModuleContext, name: str) -> cst.BaseExpression | None:
    """The literal a module-level name is bound to, once (`N = 8`, `NAME = "x"`), when
    nothing rebinds it; else None."""
    graph = ctx.graph
    defs = [s for s in graph.stmts if name in s.defs | s.mutates]
    if len(defs) != 1 or defs[0].scope != MODULE:
        return None
    if any(name in fn.globals for fn in graph.functions.values()):
        return None
    node = defs[0].node
    literal = (cst.Integer, cst.Float, cst.SimpleString)
    if type(node) is cst.Assign and len(node.targets) == 1 and isinstance(node.value, literal):
        return node.value
    return None


def range_loop(ctx: ModuleContext, stmt: Stmt, name: str) -> Loop | None:
    """The enclosing `for name in range(...)` loop, when its body never rebinds `name`."""
    for loop_id in stmt.loops:
        loop = ctx.graph.loops[loop_id]
        node = loop.node
        if (
            type(node) is cst.For
            and type(node.target) is cst.Name
            and node.target.value == name
            and type(node.iter) is cst.Call
            and type(node.iter.func) is cst.Name
            and node.iter.func.value == "range"
            and builtin(ctx, "range")
        ):
            writers = [s for s in ctx.graph.loop_stmts(loop_id) if name in s.defs]
            return None if writers else loop
    return None


def builtin(ctx: ModuleContext, name: str) -> bool:
    """`name` is the Python builtin: no import, binding or parameter in the module hides it."""
    graph = ctx.graph
    return (
        name not in ctx.imports.bindings
        and not any(name in s.defs for s in graph.stmts)
        and not any(name in fn.params for fn in graph.functions.values())
    )
