"""What an attribute of `self` holds while the instance is being built.

A trainer builds its model in `__init__` (`self.model = Model(**hparams)`) and initialises
it in a method `__init__` calls (`params = self.model.init(key, x)`). Code outside the
class may store into `trainer.model` later, but not before the constructor returns: until
then only the class's own code holds the instance. `stored_calls(ctx, at, expr)` gives the
calls stored in `self.x` by the class's family (`facts/class_family.py`), which are all
`self.x` may hold at `at`, when all of these hold:

- the class is sealed for `x` (`facts/self_attrs.py` `sealed_class`: it derives from
  nothing, no decorator, no member escapes or is used as a value, nothing reaches
  attributes by name, and `self` is read only as `self.a` in its methods: it is handed
  to nothing, so no other code holds the instance while it is built);
- `at` is a statement of a method that runs only during construction, and `expr` is in
  no lambda or generator there (which may run later): an `__init__` of the family (the
  module names `__init__` only as `super().__init__(...)` in one), or a method every
  mention of whose name in the module is a direct call `self.m(...)` in the body of such
  a method, with no decorator (to a fixed point);
- every statement of the family storing `self.x` is `self.x = C(...)`, its one target,
  and no class body of the family binds `x` (a class attribute read before the store).

`stored_parameters` gives, under the same premises, the parameters `self.x` holds where
every store is `self.x = p` in the `__init__` of a class with no subclass, `p` a
parameter it never rebinds (`self.model = flow`): `facts/fresh.py` follows each to what
every building of an instance passes.

Anything else is not proven (None).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.names import dotted
from autoopt.analysis.facts.class_family import family, root_class
from autoopt.analysis.facts.self_attrs import (
    is_store,
    roots,
    sealed_class,
    self_method,
    uses,
    walk_parents,
)

_LATER = (cst.Lambda, cst.GeneratorExp)
_INIT = "__init__"


def stored_calls(ctx: ModuleContext, at: str, expr: cst.Attribute) -> list[cst.Call] | None:
    """The calls the family stores in `self.x`, all that `expr` (`self.x`, read in the
    method `at`, a qualname) may hold there (None: not proven)."""
    stores = _stores(ctx, at, expr)
    if not stores or any(type(n.value) is not cst.Call for _, _, n in stores):
        return None
    return [n.value for _, _, n in stores]  # type: ignore[misc]  # calls, as checked


def stored_parameters(
    ctx: ModuleContext, at: str, expr: cst.Attribute
) -> list[tuple[Function, cst.Name]] | None:
    """As `stored_calls`, where each store is `self.x = p` in the `__init__` of a class
    with no subclass, `p` a parameter it never rebinds: that `__init__` and `p` as read
    there (None: not proven)."""
    stores = _stores(ctx, at, expr)
    if not stores:
        return None
    found: list[tuple[Function, cst.Name]] = []
    for method, stmt, node in stores:
        value = node.value
        if method.name != _INIT or stmt.scope != method.qualname or type(value) is not cst.Name:
            return None
        if len(family(ctx, method.scope)) != 1:
            return None
        name = value.value
        if name not in method.params or name in method.globals | method.nonlocals:
            return None
        if any(name in s.defs for s in ctx.graph.scope_stmts(method.qualname)):
            return None
        found.append((method, value))
    return found


def _stores(
    ctx: ModuleContext, at: str, expr: cst.Attribute
) -> list[tuple[Function, Stmt, cst.Assign]] | None:
    """Every statement of the family storing `self.x` (`self.x = v`, its one target),
    with its method, where `expr` (`self.x` read in the method `at`) may hold only what
    they store (None: not proven)."""
    method = self_method(ctx, at)
    base = expr.value
    if method is None or type(base) is not cst.Name or base.value != method.params[0]:
        return None
    cls, attr = method.scope, expr.attr.value
    if sealed_class(ctx, cls, attr) is not None or _class_binds(ctx, cls, attr):
        return None
    if at not in constructing(ctx, cls) or _later(ctx, expr):
        return None
    stores: list[tuple[Function, Stmt, cst.Assign]] = []
    for use in uses(ctx, cls, attr):
        node = use.stmt.node
        if not is_store(use):
            continue
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return None
        if node.targets[0].target is not use.node:
            return None
        stores.append((use.method, use.stmt, node))
    return stores or None


def constructing(ctx: ModuleContext, cls: str) -> frozenset[str]:
    """The qualnames of the methods of `cls`'s family that run only during construction."""
    return ctx.per_module(_constructing, root_class(ctx, cls))


def _constructing(ctx: ModuleContext, cls: str) -> frozenset[str]:
    members = set(family(ctx, cls))
    methods = [
        fn
        for fn in ctx.graph.functions.values()
        if fn.scope in members and self_method(ctx, fn.qualname) is not None
    ]
    found = {fn.qualname for fn in methods if fn.name == _INIT and _init_only_built(ctx)}
    grown = bool(found)
    while grown:
        more = {
            fn.qualname
            for fn in methods
            if fn.qualname not in found
            and not fn.name.startswith("__")
            and not fn.node.decorators
            and _called_only_from(ctx, fn.name, methods, found)
        }
        found |= more
        grown = bool(more)
    return frozenset(found)


def _init_only_built(ctx: ModuleContext) -> bool:
    """The module names `__init__` only as `super().__init__(...)` in an `__init__` (of
    the family, or of a class outside it, whose `super()` is no member): no code runs it
    again on a built instance."""
    inits = {q for q, fn in ctx.graph.functions.items() if fn.is_method and fn.name == _INIT}
    for stmt in ctx.graph.stmts:
        for root in roots(stmt):
            for node, parent in walk_parents(root, None):
                if type(node) is not cst.Attribute or node.attr.value != _INIT:
                    continue
                base = node.value
                own = type(base) is cst.Call and not base.args and dotted(base.func) == "super"
                called = type(parent) is cst.Call and parent.func is node
                if not (own and called and stmt.scope in inits):
                    return False
    return True


def _called_only_from(
    ctx: ModuleContext, name: str, methods: list[Function], callers: set[str]
) -> bool:
    """Every mention of the attribute `name` in the module is a direct call `self.name(...)`
    in the body of one of `callers` (not in a nested function, lambda or generator)."""
    me = {fn.qualname: fn.params[0] for fn in methods if fn.qualname in callers}
    mentioned = False
    for stmt in ctx.graph.stmts:
        for root in roots(stmt):
            for node, parent in walk_parents(root, None):
                if type(node) is not cst.Attribute or node.attr.value != name:
                    continue
                base = node.value
                on_self = type(base) is cst.Name and base.value == me.get(stmt.scope)
                called = type(parent) is cst.Call and parent.func is node
                if not (on_self and called) or _later(ctx, node):
                    return False
                mentioned = True
    return mentioned


def _later(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """`node` is in a lambda or a generator, which may run after the statement."""
    return any(type(n) in _LATER for n in ctx.ancestors(node))


def _class_binds(ctx: ModuleContext, cls: str, attr: str) -> bool:
    """A class body of the family binds `attr` (read before an instance stores it)."""
    return any(attr in s.defs for member in family(ctx, cls) for s in ctx.graph.scope_stmts(member))
