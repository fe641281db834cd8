"""Where code of a module may set an attribute: by a store, or by name.

`stored_anywhere` and `stored_elsewhere` answer whether some statement may set attribute
`name` of some object (`m.dense = ...`, `setattr(m, "dense", v)`, `object.__setattr__`,
`vars(m)[...]`, an object's `__dict__`); `init_named`, whether code may run an
`__init__` on an object it is given (`C.__init__(obj)`), which would make the field
stores of that `__init__` set an object other than the one its class builds.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import scope_nodes
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.facts.constructors import init_fields

#: Words through which code sets attributes by name.
_BY_NAME = frozenset({"setattr", "__setattr__", "__dict__", "vars"})


def stored_elsewhere(ctx: ModuleContext, name: str, stores: list[Stmt]) -> bool:
    """Whether a statement of the module but `__init__`'s own stores may set attribute
    `name` of some object (`m.dense = ...`, `setattr`, `object.__setattr__`, an
    object's `__dict__`). The stores of another class's `__init__` that
    `constructors.init_fields` reads set only the object that class makes, where no code
    runs an `__init__` on an object it is given (`C.__init__(obj)`; `super().__init__()`
    runs its own)."""
    own = {id(s.node) for s in stores} | ctx.per_module(init_stores)
    return _stored(ctx, name, own)


def stored_anywhere(ctx: ModuleContext, name: str, own: frozenset[int] = frozenset()) -> bool:
    """Whether any statement of the module may set attribute `name` of some object, the
    stores of an `__init__` included (by name too: `setattr`, `__dict__`), but the
    statements `own` (by the identity of their nodes), which set only objects the caller
    knows."""
    return _stored(ctx, name, own)


def _stored(ctx: ModuleContext, name: str, own: set[int] | frozenset[int]) -> bool:
    for stmt in ctx.graph.stmts:
        if id(stmt.node) in own:
            continue
        if sets_by_name(stmt.node) or stores_attribute(stmt.node, name):
            return True
    return False


def sets_by_name(node: cst.CSTNode) -> bool:
    """Whether `node` names a way to set attributes by name (`setattr`, `__dict__`)."""
    for inner in scope_nodes(node):
        if type(inner) is cst.Name and inner.value in _BY_NAME:
            return True
        if type(inner) is cst.Attribute and inner.attr.value == "__dict__":
            return True
    return False


def init_stores(ctx: ModuleContext) -> frozenset[int]:
    """The ids of the field stores of every class `init_fields` reads, where no code
    names `__init__` but as `super().__init__` (nor in a string); else none."""
    if init_named(ctx):
        return frozenset()
    found = [init_fields(ctx, cls) for cls in ctx.graph.classes]
    return frozenset(id(s.node) for f in found if f is not None for s in f[1])


def init_named(ctx: ModuleContext) -> bool:
    """Whether some code names `__init__` but as `super().__init__` (or in a string,
    `getattr(C, "__init__")`): it may run an `__init__` on an object it is given."""
    for stmt in ctx.graph.stmts:
        for node in scope_nodes(stmt.node):
            named = type(node) is cst.Attribute and node.attr.value == "__init__"
            if named and not _super_call(node.value):  # type: ignore[attr-defined]
                return True
            if isinstance(node, cst.SimpleString) and "__init__" in node.value:
                return True
    return False


def _super_call(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "super"


def stores_attribute(node: cst.CSTNode, name: str) -> bool:
    targets: list[cst.BaseExpression] = []
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) in (cst.AugAssign, cst.AnnAssign):
        targets = [node.target]  # type: ignore[attr-defined]
    found = [n for t in targets for n in scope_nodes(t) if type(n) is cst.Attribute]
    found += [t for t in targets if type(t) is cst.Attribute]
    return any(a.attr.value == name for a in found)
