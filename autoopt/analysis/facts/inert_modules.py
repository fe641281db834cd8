"""Equinox modules a compiled body can take nothing from and put nothing into.

`eqx.filter_jit` hands its function tracers of an argument's array leaves, new containers
around them, and every other leaf as the caller's very object (`overlays/equinox.py`,
`REBUILT_ARGUMENTS`). A module whose every other leaf is *inert*, an immutable value that
holds no buffer, gives the body nothing of the caller's it could keep or change:
`facts/jit_arguments.py` leaves such an argument out of what the body sees as it is.

`inert_name` holds of a name where every statement whose binding of it may reach the
read is `name = value` of an inert value (a call `C(...)` building an inert object, with no
`*args` or `**kwargs`, or a conditional of them), and nothing else can bind it: a local
of a function (no parameter, no `global` or `nonlocal` of another function, no namespace
handed out: `reflection.locals_escape`) or a module global that neither a function nor
`reflection.rebinding` reaches. The module names none of `setattr`, `__setattr__`,
`__dict__` and `vars`, through which code could put another value into a frozen
object's field.

A call `C(...)` builds an inert object when `C` is a module class read by
`constructors.init_fields` (bound once at the top level, `eqx.Module` its one base, no
default but a literal one, so no `eqx.field`, whose converter runs code; every field
written `self.f = value` in `__init__`) and each value `__init__` stores is inert, read
with each parameter bound to what this call gives it (or its literal default):

- a value the value model proves a JAX array (a leaf the body sees as a tracer), or an
  immutable value holding no buffer (a number, a string, a dtype, a shape, None);
- a parameter given an inert value; a local of `__init__` every binding of which is
  `local = value` of an inert value;
- a function of the module (a top-level `def` bound once, undecorated, with literal
  defaults at most) or a name of jax: the module stores no attribute anywhere but a
  field in an `__init__` (a function's attribute could hold a buffer), and libraries
  set none on the functions they are given;
- a tuple, an arithmetic or comparison, or a conditional of inert values (arithmetic on
  them gives a number, a string, a tuple of them or an array, or raises);
- a layer of `SEALED_LAYERS` given inert values but its `key`, or a call building an
  inert object of another such class (classes followed at most `_MAX_DEPTH` deep).

Anything else (a list or a dict, an object of a plain class, the result of a call not
listed, a model a function returns) is not proven inert.
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_literal
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.facts.constructors import field_value, init_fields
from autoopt.analysis.facts.reflection import code_words, locals_escape, rebinding
from autoopt.analysis.facts.sealed import class_def
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model
from autoopt.analysis.values.shapes import assigned_value

#: Values a compiled body sees as tracers, or that hold no buffer and cannot change.
_INERT_KINDS = frozenset({Kind.ARRAY, Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE})
#: Words through which code may set a frozen object's field or reach its namespace.
_SETTERS = frozenset({"setattr", "__setattr__", "__dict__", "vars"})
_OPERATIONS = (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison)
_MAX_DEPTH = 4
#: Parameter -> whether the call gives it an inert value (None: unbound here).
Given = Mapping[str, bool]


def inert_name(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """Whether `name`, read at `stmt`, is proven to hold an inert equinox module."""
    return ctx.per_module(_inert_name, stmt.id, name)


def _inert_name(ctx: ModuleContext, stmt_id: int, name: str) -> bool:
    return not why_not_inert(ctx, ctx.graph.stmts[stmt_id], name)


def why_not_inert(ctx: ModuleContext, stmt: Stmt, name: str) -> str:
    """The premise of `inert_name` that fails for `name` at `stmt`, as a clause; ""
    where it holds."""
    words = code_words(ctx, _SETTERS)
    if words:
        return f"the module names `{words[0]}`, which may set a field of a frozen object"
    if not _bound_only_here(ctx, stmt.scope, name):
        return f"`{name}` may be bound other than by the statements of its scope"
    stored = ctx.per_module(_attribute_store)
    if stored:
        return f"the module sets an attribute at line {stored}, as it could a function's"
    binders = ctx.graph.reaching_defs(stmt, name)
    if not binders:
        return f"no statement of its scope binds `{name}`"
    for binder in binders:
        if not _binds_inert(ctx, binder, name):
            line = ctx.span(binder.node).line
            return (
                f"`{name}` is bound at line {line} to {_spelled(ctx, binder)}, not proven an "
                "equinox module of arrays and immutable values"
            )
    return ""


def _spelled(ctx: ModuleContext, binder: Stmt) -> str:
    """`the result of `make_step``, or the value bound, as the clause names it."""
    node = binder.node
    value = node.value if type(node) is cst.Assign else None
    if type(value) is cst.Call:
        return f"the result of `{ctx.code(value.func)}`"
    return "what that statement gives" if value is None else f"`{ctx.code(value)}`"


def _bound_only_here(ctx: ModuleContext, scope: str, name: str) -> bool:
    """No parameter, no name another function rebinds, no namespace handed out."""
    graph = ctx.graph
    fn = graph.functions.get(scope)
    if fn is None and scope != MODULE:
        return False  # a class body: its names may be set from outside
    if fn is not None and (name in fn.params or name in fn.globals | fn.nonlocals):
        return False
    if any(name in f.globals | f.nonlocals for f in graph.functions.values()):
        return False
    if fn is None:
        return not rebinding(ctx).how(name)
    return not locals_escape(ctx, scope)


def _binds_inert(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    value = assigned_value(stmt, name)
    return value is not None and _inert(ctx, stmt, value, None, 0)


def _inert_construction(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, given: Given | None, depth: int
) -> bool:
    """`C(...)` at `stmt` builds an inert object of a module class (`given`: what the
    parameters of the scope of `stmt` hold, where it is an `__init__` being read)."""
    func = call.func
    if type(func) is not cst.Name or depth >= _MAX_DEPTH or any(a.star for a in call.args):
        return False
    found = init_fields(ctx, func.value) if _equinox_class(ctx, stmt, func.value) else None
    if found is None:
        return False
    init, stores = found
    site = CallSite(stmt, call, init, bound=True)
    bound: dict[str, bool] = {}
    for index, param in enumerate(init.params[1:], start=1):
        arg = site.argument(index, param)
        bound[param] = (
            _literal_default(init, param) if arg is None else _inert(ctx, stmt, arg, given, depth)
        )
    return all(_inert(ctx, s, field_value(s), bound, depth + 1) for s in stores)


def _equinox_class(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name` at `stmt` is a top-level class of the module deriving from `eqx.Module`
    alone (not an nnx module, which may be changed in place)."""
    node = class_def(ctx, name) if _module_name(ctx, stmt, name) else None
    return (
        node is not None
        and len(node.bases) == 1
        and ctx.qualify(node.bases[0].value) in eqx_api.MODULE_BASES
    )


def _literal_default(init: Function, param: str) -> bool:
    """A parameter left to its default: inert where that is a literal (`*args` and
    `**kwargs` hold what a call left over, which `__init__` may store)."""
    params = init.node.params
    for p in (*params.posonly_params, *params.params, *params.kwonly_params):
        if p.name.value == param:
            return p.default is None or is_literal(p.default)
    return False


def _inert(
    ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression, given: Given | None, depth: int
) -> bool:
    """Whether `expr`, evaluated at `stmt`, is inert (module docstring)."""
    if type(expr) is cst.Name and given is not None and expr.value in given:
        return given[expr.value]
    if model(ctx).value_of(stmt, expr).kind in _INERT_KINDS:
        return True
    if type(expr) is cst.Name:
        return _inert_local(ctx, stmt, expr.value, given, depth) or _inert_global(ctx, stmt, expr)
    if type(expr) is cst.Attribute:
        return (ctx.qualify(expr) or "").startswith("jax.")
    if type(expr) is cst.Tuple:
        return all(
            type(e) is not cst.StarredElement and _inert(ctx, stmt, e.value, given, depth)
            for e in expr.elements
        )
    if isinstance(expr, _OPERATIONS):
        return all(_inert(ctx, stmt, part, given, depth) for part in _operands(expr))
    if type(expr) is cst.IfExp:
        return _inert(ctx, stmt, expr.body, given, depth) and _inert(
            ctx, stmt, expr.orelse, given, depth
        )
    if type(expr) is cst.Call:
        return _inert_layer(ctx, stmt, expr, given, depth) or _inert_construction(
            ctx, stmt, expr, given, depth
        )
    return False


def _operands(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    if type(expr) is cst.BinaryOperation:
        return [expr.left, expr.right]
    if type(expr) is cst.UnaryOperation:
        return [expr.expression]
    assert type(expr) is cst.Comparison
    return [expr.left, *(c.comparator for c in expr.comparisons)]


def _inert_layer(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, given: Given | None, depth: int
) -> bool:
    """A layer of `SEALED_LAYERS` given inert values only, but its `key`."""
    if ctx.qualify(call.func) not in eqx_api.SEALED_LAYERS:
        return False
    return all(
        not a.star
        and (
            (a.keyword is not None and a.keyword.value == eqx_api.KEY_ARGUMENT)
            or _inert(ctx, stmt, a.value, given, depth)
        )
        for a in call.args
    )


def _inert_local(
    ctx: ModuleContext, stmt: Stmt, name: str, given: Given | None, depth: int
) -> bool:
    """A local of the `__init__` being read, every binding of which is `name = value`
    of an inert value."""
    fn = ctx.graph.functions.get(stmt.scope)
    if given is None or fn is None or name in fn.globals | fn.nonlocals:
        return False
    binders = [s for s in ctx.graph.scope_stmts(stmt.scope) if name in s.defs]
    for binder in binders:
        value = assigned_value(binder, name)
        if value is None or not _inert(ctx, binder, value, given, depth + 1):
            return False
    return bool(binders)


def _inert_global(ctx: ModuleContext, stmt: Stmt, name: cst.Name) -> bool:
    """A name of jax, or a function of the module bound once by its undecorated `def`,
    with literal defaults at most, none of whose attributes the module sets."""
    if not _module_name(ctx, stmt, name.value):
        return False
    if (ctx.qualify(name) or "").startswith("jax."):
        return True
    fn = ctx.graph.functions.get(name.value)
    if fn is None or fn.scope != MODULE or fn.node.decorators:
        return False
    params = fn.node.params
    defaults = [p.default for p in (*params.posonly_params, *params.params, *params.kwonly_params)]
    return not any(d is not None and not is_literal(d) for d in defaults)


def _attribute_store(ctx: ModuleContext) -> int:
    """The line of the first statement of the module storing or deleting an attribute
    other than a field `self.f` in an `__init__` (a function's attribute may be set so,
    to a buffer); 0 where none does."""
    for stmt in ctx.graph.stmts:
        fn = ctx.graph.functions.get(stmt.scope)
        me = fn.params[0] if fn is not None and fn.name == "__init__" and fn.params else None
        for target in _targets(stmt.node):
            if type(target) is cst.Attribute and not (
                type(target.value) is cst.Name and target.value.value == me
            ):
                return ctx.span(stmt.node).line
    return 0


def _targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """What a statement binds, stores or deletes (an unpacking's elements too)."""
    found: list[cst.BaseExpression] = []
    if type(node) is cst.Assign:
        found = [t.target for t in node.targets]
    elif isinstance(node, cst.AugAssign | cst.AnnAssign | cst.For | cst.Del):
        found = [node.target]
    elif type(node) is cst.With:
        found = [i.asname.name for i in node.items if i.asname is not None]
    out = []
    while found:
        target = found.pop()
        if type(target) is cst.Tuple or type(target) is cst.List:
            found += [e.value for e in target.elements]
        else:
            out.append(target)
    return out


def _module_name(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name`, read at `stmt`, is what the module's top level binds it to, once: the
    scope of `stmt` does not bind it, and no function nor `rebinding` rebinds it."""
    graph = ctx.graph
    if stmt.scope != MODULE and any(name in s.defs for s in graph.scope_stmts(stmt.scope)):
        return False
    if any(name in f.globals | f.nonlocals for f in graph.functions.values()):
        return False
    binders = sum(name in s.defs for s in graph.scope_stmts(MODULE))
    return binders <= 1 and not rebinding(ctx).how(name)
