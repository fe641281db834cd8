"""Lists a function builds empty and fills only by appending.

`params = []` then `params.append([w, b])` in a loop, then `return params` (a user's
`init`): the list holds exactly what its appends put in it. A *filled list* is a name
`n` of a function (not the module) such that, in that function's own statements:

- one statement binds `n`, `n = []`, and `n` is not a parameter, `global` or `nonlocal`;
- every statement that changes `n` in place is `n.append(x)` alone (one positional
  argument that does not read `n`).

These appends are then the only changes the function makes to the list: the value model
(`analysis/values/model.py`) joins the appended values into the list's value, and
`analysis/values/mutable.py` does not count them as changes that could put anything in
it. Any other change of a list of that name (an alias's append, `n[0] = x`, a nested
function's append, a callee's) is still counted there, by name, and makes the value
unknown.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Function, Stmt

#: (function, name) -> every `name.append(x)` statement of the function, with its `x`
Filled = dict[tuple[str, str], list[tuple[Stmt, cst.BaseExpression]]]


def filled_lists(ctx: ModuleContext) -> Filled:
    """The module's filled lists (use through `ctx.per_module`)."""
    graph = ctx.graph
    found: Filled = {}
    for qualname, fn in graph.functions.items():
        stmts = graph.scope_stmts(qualname)
        for name in {n for s in stmts for n in s.mutates}:
            appends = _appends(fn, stmts, name)
            if appends is not None:
                found[(qualname, name)] = appends
    return found


def _appends(
    fn: Function, stmts: list[Stmt], name: str
) -> list[tuple[Stmt, cst.BaseExpression]] | None:
    if name in fn.params or name in fn.globals or name in fn.nonlocals:
        return None
    binders = [s for s in stmts if name in s.defs]
    if len(binders) != 1 or not _empty_list(binders[0], name):
        return None
    appends = []
    for stmt in stmts:
        if name not in stmt.mutates:
            continue
        appended = _appended(stmt, name)
        if appended is None:
            return None
        appends.append((stmt, appended))
    return appends


def _empty_list(stmt: Stmt, name: str) -> bool:
    """`name = []`, nothing else bound."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target = node.targets[0].target
    value = node.value
    return (
        type(target) is cst.Name
        and target.value == name
        and type(value) is cst.List
        and not value.elements
    )


def _appended(stmt: Stmt, name: str) -> cst.BaseExpression | None:
    """`x` of a statement that is `name.append(x)` alone, `x` not reading `name`."""
    node = stmt.node
    if type(node) is not cst.Expr or type(node.value) is not cst.Call:
        return None
    call = node.value
    func = call.func
    if not (
        type(func) is cst.Attribute
        and type(func.value) is cst.Name
        and func.value.value == name
        and func.attr.value == "append"
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
    ):
        return None
    value = call.args[0].value
    if any(n.value == name for n in read_names(value)):
        return None
    return value


def filled_appends(ctx: ModuleContext) -> frozenset[tuple[int, str]]:
    """(statement id, name) of every append that fills a filled list."""
    return frozenset(
        (stmt.id, name)
        for (_, name), appends in ctx.per_module(filled_lists).items()
        for stmt, _ in appends
    )
