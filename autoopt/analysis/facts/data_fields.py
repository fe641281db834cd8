"""Fields of a plain object that hold, from its construction on, one value of a kind.

`data_field(ctx, stmt, expr, kinds)` holds of `obj.f` read at `stmt` where the object
was built by a plain class of the module and its field `f` holds the one value its
`__init__` stored, of one of `kinds` by the value model: no other code may set it.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.facts.attribute_stores import stored_elsewhere, stores_attribute
from autoopt.analysis.facts.bindings import binding_call
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.facts.unkept_arguments import plain_class
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model


def data_field(
    ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression, kinds: frozenset[Kind]
) -> bool:
    """`diffusion.rates`, where one dominating `diffusion = C(...)` alone binds the name
    (or, read where nothing binds it, one such statement of the module's top level binds
    the global: `_global_call`),
    `C` a plain class of the module (`unkept_arguments.plain_class`: no base, no hook, no
    descriptor), whose `__init__` stores the field once, `self.rates = v`, `v` of `kinds` by
    the value model, and nothing else in the module stores an attribute of that name or sets
    one by name (`stored_elsewhere`)."""
    if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
        return False
    call = binding_call(ctx, stmt, expr.value.value) or _global_call(ctx, stmt, expr.value.value)
    func = call.func if call is not None else None
    if type(func) is not cst.Name or not plain_class(ctx, func.value):
        return False
    init = ctx.graph.functions[f"{func.value}.__init__"]
    field = expr.attr.value
    stores = [s for s in ctx.graph.scope_stmts(init.qualname) if stores_attribute(s.node, field)]
    node = stores[0].node if len(stores) == 1 else None
    if type(node) is not cst.Assign or len(node.targets) != 1 or not init.params:
        return False
    target = node.targets[0].target
    own = type(target) is cst.Attribute and ctx.code(target.value) == init.params[0]
    if not own or stored_elsewhere(ctx, field, stores):
        return False
    return model(ctx).value_of(stores[0], node.value).kind in kinds


def _global_call(ctx: ModuleContext, stmt: Stmt, name: str) -> cst.Call | None:
    """`name = C(...)`, the one statement binding the global `name`, outside any loop,
    which `stmt` reads where its scope binds nothing of that name, no function declares
    it `global` and no other way of rebinding reaches it (`reflection.rebinding`)."""
    graph = ctx.graph
    fn = graph.functions.get(stmt.scope)
    if stmt.scope == MODULE or (fn is not None and name in fn.params):
        return None
    if any(name in s.defs for s in graph.scope_stmts(stmt.scope)):
        return None
    if name in rebinding(ctx).names or any(name in f.globals for f in graph.functions.values()):
        return None
    defs = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
    node = defs[0].node if len(defs) == 1 and not defs[0].loops else None
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    return value if type(target) is cst.Name and type(value) is cst.Call else None
