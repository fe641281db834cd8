"""What the objects of a class of the module hold, and containers filled with new arrays.

`init_fields` reads an equinox module class (`class CNF(eqx.Module)`) that defines its own
`__init__`: the object's leaves are the values that `__init__` stores in its fields. It
answers only where each field is written once, as `self.f = value`, `self` is read for
nothing else (`self.b = self.a` ties two fields), the class is bound once at module level
with `equinox.Module` its one base, defines no `__post_init__` or `__new__`, no nested
function in `__init__`, and gives its fields no default but a literal one (a class
attribute is shared by every object).

`fresh_filled` reads a local container filled in place (`params = []`, then
`params.append([w, b])` in a loop): every binding of the name in its scope makes an empty
list or dict, and every other use of it stores a value (`append`, `name[k] = v`), is
returned, or is stored in a field of `self`; which values it stores is the caller's
question (`aliases.Leaves`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.overlays import equinox as eqx_api

_OWN_CONSTRUCTION = frozenset({"__post_init__", "__new__", "__setattr__"})
#: Bases and decorators whose generated `__init__` stores each argument in one field, as
#: given (a base or decorator missing here may run code of its own on construction).
_RECORD_BASES = frozenset({"typing.NamedTuple", "flax.struct.PyTreeNode"}) | eqx_api.MODULE_BASES
_RECORD_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})
_APPENDS = frozenset({"append"})


def init_fields(ctx: ModuleContext, name: str) -> tuple[Function, list[Stmt]] | None:
    """The `__init__` of equinox module class `name` and the statements storing its fields,
    each field once; None where the class is not read so (module docstring)."""
    node = _module_class(ctx, name)
    init = ctx.graph.functions.get(f"{name}.__init__")
    if node is None or init is None or not _literal_defaults(node):
        return None
    methods = {
        s.node.name.value for s in ctx.graph.scope_stmts(name) if type(s.node) is cst.FunctionDef
    }
    if methods & _OWN_CONSTRUCTION or not init.params:
        return None
    me = init.params[0]
    stmts = [
        s
        for s in ctx.graph.stmts
        if s.scope == init.qualname or s.scope.startswith(f"{init.qualname}.")
    ]
    if any(s.scope != init.qualname or type(s.node) is cst.FunctionDef for s in stmts):
        return None  # a nested function may close over a field's value
    stores = [s for s in stmts if _field(s, me) is not None]
    fields = [_field(s, me) for s in stores]
    if len(set(fields)) != len(fields) or _reads_self(init.node, me, stores):
        return None
    return init, stores


def plain_record(ctx: ModuleContext, name: str) -> bool:
    """A class of the module whose object holds each argument in one field, as given: a
    NamedTuple or a dataclass bound once, deriving from no class of the module, with no
    construction code of its own and no default but a literal one."""
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or not _literal_defaults(node):
        return False
    own = {
        s.node.name.value for s in ctx.graph.scope_stmts(name) if type(s.node) is cst.FunctionDef
    }
    return not own & (_OWN_CONSTRUCTION | {"__init__"}) and _generated_init(ctx, node)


def _generated_init(ctx: ModuleContext, node: cst.ClassDef) -> bool:
    """A NamedTuple, a dataclass or an equinox/flax struct record: one known base or one
    known decorator (called plainly or with keywords), nothing else."""
    if node.keywords:
        return False
    bases = [ctx.qualify(b.value) for b in node.bases]
    decorators = [
        ctx.qualify(d.decorator.func if type(d.decorator) is cst.Call else d.decorator)
        for d in node.decorators
    ]
    if len(bases) == 1 and not decorators:
        return bases[0] in _RECORD_BASES
    return not bases and len(decorators) == 1 and decorators[0] in _RECORD_DECORATORS


def field_value(stmt: Stmt) -> cst.BaseExpression:
    """The value a statement of `init_fields` stores."""
    assert type(stmt.node) is cst.Assign
    return stmt.node.value


def _module_class(ctx: ModuleContext, name: str) -> cst.ClassDef | None:
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or node.decorators or node.keywords or len(node.bases) != 1:
        return None
    return node if ctx.qualify(node.bases[0].value) in eqx_api.MODULE_BASES else None


def _literal_defaults(node: cst.ClassDef) -> bool:
    """Whether every class-level value is a literal (`t0: float = 0.0`) or a function."""
    body = node.body.body if type(node.body) is cst.IndentedBlock else ()
    for statement in body:
        small = statement.body if type(statement) is cst.SimpleStatementLine else ()
        for line in small:
            value = (
                getattr(line, "value", None) if type(line) in (cst.Assign, cst.AnnAssign) else None
            )
            if value is not None and not isinstance(value, cst.BaseNumber | cst.BaseString):
                return False
    return True


def _field(stmt: Stmt, me: str) -> str | None:
    """`self.f = value` -> `f`."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    if type(target) is not cst.Attribute or type(target.value) is not cst.Name:
        return None
    return target.attr.value if target.value.value == me else None


def _reads_self(init: cst.FunctionDef, me: str, stores: list[Stmt]) -> bool:
    """Whether `__init__` uses `self` other than as the object of a field it stores."""
    allowed = {id(s.node.targets[0].target.value) for s in stores}  # type: ignore[attr-defined]  # an Assign
    finder = _Uses(me)
    init.body.visit(finder)
    return any(id(n) not in allowed for n in finder.found)


class _Uses(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.found.append(node)


Stored = list[tuple[Stmt, cst.BaseExpression]]


def fresh_filled(ctx: ModuleContext, scope: str, name: str) -> Stored | None:
    """The values a local container is filled with (and where), where every binding of
    `name` in function `scope` makes an empty list or dict and every other use stores
    into it, returns it, or (in `__init__`) stores it in a field; None otherwise."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or name in fn.params or name in fn.globals | fn.nonlocals:
        return None
    inner = [s for s in ctx.graph.stmts if s.scope.startswith(f"{scope}.")]
    if any(name in s.uses | s.defs | s.mutates for s in inner):
        return None  # a nested function or class reads it
    me = fn.params[0] if fn.name == "__init__" and fn.params else ""
    stored: Stored = []
    for stmt in ctx.graph.scope_stmts(scope):
        if name not in stmt.uses | stmt.defs | stmt.mutates:
            continue
        values = _use(stmt, name, me)
        if values is None:
            return None
        stored += values
    return stored


def _use(stmt: Stmt, name: str, me: str) -> Stored | None:
    """The values one statement stores into `name` ([]: it binds it empty or hands it on
    whole, returned or stored in a field of `me`); None for any other use."""
    node = stmt.node
    if type(node) is cst.Expr and type(node.value) is cst.Call:
        call = node.value
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
            return None
        own = func.value.value == name and func.attr.value in _APPENDS
        one = len(call.args) == 1 and not call.args[0].star
        return [(stmt, call.args[0].value)] if own and one else None
    if type(node) is cst.Return and type(node.value) is cst.Name:
        return []
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    if type(target) is cst.Name and target.value == name:
        empty = type(value) in (cst.List, cst.Dict) and not value.elements  # type: ignore[attr-defined]
        return [] if empty else None
    if (
        type(target) is cst.Subscript
        and type(target.value) is cst.Name
        and target.value.value == name
    ):
        return None if name in {n.value for n in read_names(value)} else [(stmt, value)]
    own = (
        type(target) is cst.Attribute
        and type(target.value) is cst.Name
        and target.value.value == me
    )
    return (
        [] if own and type(value) is cst.Name and value.value == name else None
    )  # `self.f = layers`
