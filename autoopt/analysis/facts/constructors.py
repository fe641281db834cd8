"""What the objects of a class of the module hold, and containers filled with new arrays.

`init_fields` reads an equinox or flax nnx module class (`class CNF(eqx.Module)`,
`class MLP(nnx.Module)`) that defines its own `__init__`: the object's leaves are the
values that `__init__` stores in its fields (a field written twice, in two branches of an
`if`, may hold either: both are counted). It answers only where every write is
`self.f = value`, `self` is read for nothing else but `self.f` of a field `param_fields`
lists (a field stored once, from a parameter: `self.b = self.a` of another field ties
two fields) or, where the caller names them, a store `self.f = self.m(...)` of a method
`m` `closure_factories` proves returns a closure holding no leaf, the class is bound
once at module level with `equinox.Module` or `flax.nnx.Module` its one base, defines
no `__post_init__`, `__new__` or `__setattr__`, no nested function in `__init__`, and
gives its fields no default but a literal one (a class attribute is shared by every
object). An nnx module is mutable: no other method
of its class may write an attribute or item through its first parameter, at any depth
(`self.dec.kernel = self.enc.kernel` ties two variables, so may
`self.layers.append(...)`), nor call `setattr`.

`fresh_filled` reads a local container filled in place (`params = []`, then
`params.append([w, b])` in a loop): every binding of the name in its scope makes an empty
list or dict, and every other use of it stores a value (`append`, `name[k] = v`), is
returned, or is stored in a field of `self`; which values it stores is the caller's
question (`aliases.Leaves`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import MUTATING_METHODS, is_literal, read_names
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api

_OWN_CONSTRUCTION = frozenset({"__post_init__", "__new__", "__setattr__"})
#: Bases and decorators whose generated `__init__` stores each argument in one field, as
#: given (a base or decorator missing here may run code of its own on construction).
_RECORD_BASES = frozenset({"typing.NamedTuple", "flax.struct.PyTreeNode"}) | eqx_api.MODULE_BASES
_RECORD_DECORATORS = frozenset({"dataclasses.dataclass", "flax.struct.dataclass", "chex.dataclass"})
_APPENDS = frozenset({"append"})
#: Bases of the module classes `init_fields` reads.
_MODULE_BASES = eqx_api.MODULE_BASES | nnx_api.USER_MODULE_BASES


def init_fields(
    ctx: ModuleContext, name: str, factories: frozenset[str] = frozenset()
) -> tuple[Function, list[Stmt]] | None:
    """The `__init__` of module class `name` and the statements storing its fields; None
    where the class is not read so (module docstring). `__init__` may also call the
    methods `factories` through `self` where a store's whole value is that call
    (`self.f = self.m(...)`; `closure_factories.leaf_fields` proves what they return)."""
    node = _module_class(ctx, name)
    init = ctx.graph.functions.get(f"{name}.__init__")
    if node is None or init is None or not literal_defaults(node):
        return None
    methods = {
        s.node.name.value for s in ctx.graph.scope_stmts(name) if type(s.node) is cst.FunctionDef
    }
    if methods & _OWN_CONSTRUCTION or not init.params:
        return None
    if ctx.qualify(node.bases[0].value) in nnx_api.USER_MODULE_BASES and writes_later(ctx, name):
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
    return None if _reads_self(init, stores, factories) else (init, stores)


def param_fields(init: Function, stores: list[Stmt]) -> dict[str, str]:
    """The fields stored once, each from a parameter of `__init__` -> that parameter:
    `__init__` may read them (`nnx.Linear(512, self.num_classes, rngs=rngs)`)."""
    me = init.params[0]
    fields = [_field(s, me) for s in stores]
    out = {}
    for stmt, name in zip(stores, fields, strict=True):
        value = field_value(stmt)
        if type(value) is cst.Name and value.value in init.params[1:] and fields.count(name) == 1:
            out[str(name)] = value.value
    return out


def init_bufferless_names(ctx: ModuleContext, init: Function, given: set[str]) -> frozenset[str]:
    """The names of `__init__` that hold no buffer: the parameters `given` (a call gives
    them literals) that `__init__` does not bind again, and the locals every binding of
    which is `name = e`, `e` a literal, one of these names, or arithmetic, a comparison, a
    subscript, a tuple or a conditional of them (`strides = (2, 2) if down else (1, 1)`,
    `n = shape[0] * shape[1]`)."""
    binders: dict[str, list[Stmt]] = {}
    for stmt in ctx.graph.scope_stmts(init.qualname):
        for name in stmt.defs:
            binders.setdefault(name, []).append(stmt)
    known = {p for p in given if p not in binders}
    todo = {n for n in binders if n not in init.params and n not in init.globals | init.nonlocals}
    while True:
        found = {n for n in todo - known if all(_bound_bufferless(s, n, known) for s in binders[n])}
        if not found:
            return frozenset(known)
        known |= found


def _bound_bufferless(stmt: Stmt, name: str, known: set[str]) -> bool:
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target = node.targets[0].target
    return type(target) is cst.Name and target.value == name and bufferless_value(node.value, known)


def bufferless_value(expr: cst.BaseExpression, known: frozenset[str] | set[str]) -> bool:
    """Whether `expr` is a Python value built of literals and the names `known` only."""
    if is_literal(expr):
        return True
    if type(expr) is cst.Name:
        return expr.value in known
    if type(expr) is cst.Tuple or type(expr) is cst.List:
        return all(bufferless_value(e.value, known) for e in expr.elements)
    if type(expr) is cst.BinaryOperation:
        return bufferless_value(expr.left, known) and bufferless_value(expr.right, known)
    if type(expr) is cst.UnaryOperation:
        return bufferless_value(expr.expression, known)
    if type(expr) is cst.Comparison:
        parts = [expr.left, *(c.comparator for c in expr.comparisons)]
        return all(bufferless_value(p, known) for p in parts)
    if type(expr) is cst.IfExp:
        return bufferless_value(expr.body, known) and bufferless_value(expr.orelse, known)
    if type(expr) is cst.Subscript:
        return bufferless_value(expr.value, known)  # an item of a tuple of literals
    return False


def literal_default(init: Function, name: str) -> bool:
    """Whether parameter `name` of `init` has a literal default (left out, it holds no
    buffer); `*args` and `**kwargs` have none."""
    params = init.node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == name:
            return param.default is not None and is_literal(param.default)
    return False


def writes_later(ctx: ModuleContext, name: str) -> bool:
    """Whether a method of class `name` other than `__init__` writes through its first
    parameter (`self.a = ...`, `self.a.b = ...`, `self.a[k] = ...`, `del self.a`) or
    calls `setattr`."""
    for stmt in ctx.graph.stmts:
        method = ".".join(stmt.scope.split(".")[:2])
        if not stmt.scope.startswith(f"{name}.") or method == f"{name}.__init__":
            continue
        fn = ctx.graph.functions.get(method)
        finder = _Writes(fn.params[0] if fn is not None and fn.params else "")
        stmt.node.visit(finder)
        if finder.found:
            return True
    return False


def plain_record(ctx: ModuleContext, name: str) -> bool:
    """A class of the module whose object holds each argument in one field, as given: a
    NamedTuple or a dataclass bound once, deriving from no class of the module, with no
    construction code of its own and no default but a literal one."""
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or not literal_defaults(node):
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
    return node if ctx.qualify(node.bases[0].value) in _MODULE_BASES else None


def literal_defaults(node: cst.ClassDef) -> bool:
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


def _reads_self(init: Function, stores: list[Stmt], factories: frozenset[str]) -> bool:
    """Whether `__init__` uses `self` other than as the object of a field it stores, in
    `self.f` of a field `param_fields` lists, or in a store's whole value `self.m(...)`
    of a method `m` of `factories`."""
    allowed = {id(s.node.targets[0].target.value) for s in stores}  # type: ignore[attr-defined]  # an Assign
    allowed |= {id(n) for n in (_factory_receiver(s, factories) for s in stores) if n is not None}
    finder = _Uses(init.params[0], set(param_fields(init, stores)))
    init.node.body.visit(finder)
    return any(id(n) not in allowed for n in finder.found)


def _factory_receiver(stmt: Stmt, factories: frozenset[str]) -> cst.Name | None:
    """`self` in a store `self.f = self.m(...)` of a method `m` of `factories`."""
    value = field_value(stmt)
    func = value.func if type(value) is cst.Call else None
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return None
    return func.value if func.attr.value in factories else None


class _Uses(cst.CSTVisitor):
    """The uses of a name, but for reads of the attributes `readable` of it."""

    def __init__(self, name: str, readable: set[str] | None = None) -> None:
        self.name = name
        self.readable = readable or set()
        self.found: list[cst.Name] = []

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        value = node.value
        if type(value) is cst.Name and value.value == self.name:
            return node.attr.value not in self.readable
        return True

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.found.append(node)


class _Writes(cst.CSTVisitor):
    """Whether a statement writes an attribute or item reached through `name` (by
    assignment, `del` or a mutating method), or calls `setattr`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found = False

    def _through(self, target: cst.BaseExpression) -> bool:
        if type(target) in (cst.Tuple, cst.List):
            return any(self._through(e.value) for e in target.elements)  # type: ignore[attr-defined]
        if type(target) is cst.StarredElement:
            return self._through(target.value)
        if type(target) not in (cst.Attribute, cst.Subscript):
            return False
        root: cst.BaseExpression = target
        while type(root) in (cst.Attribute, cst.Subscript):
            root = root.value  # type: ignore[attr-defined]
        return type(root) is not cst.Name or root.value == self.name

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.found |= self._through(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.found |= self._through(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.found |= self._through(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self.found |= self._through(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Name:
            self.found |= func.value == "setattr"
        elif type(func) is cst.Attribute and func.attr.value in MUTATING_METHODS:
            self.found |= self._through(func.value) or (
                type(func.value) is cst.Name and func.value.value == self.name
            )  # `self.layers.append(...)`


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
