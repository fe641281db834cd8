"""A method of a helper object that keeps no reference to one argument (for
`facts/attribute_reads.py`).

`self.callback.log(self.model, self.state, logger=self.logger, epoch=e)` hands
`self.state` to `log`. `handed_unkept` proves `log` keeps no reference to it once it
returns, and returns none:

- `self.state` (or a field, item or new container of it) is one argument of the call,
  and no other argument reads it;
- the callee is `self.f.m`, where every store of `self.f` in the methods of the class
  is `self.f = K(...)` of one class `K` of this module, bound once, with no base,
  keyword, decorator, `__new__` or `__getattribute__`, from which no class derives; no
  statement of the module but those stores sets an attribute `f`, nor any `m` or
  `__class__`, of any object, and none sets attributes by name (`setattr`,
  `__setattr__`, `__dict__`, `vars`: `unkept_arguments.stored_elsewhere`); `K`
  defines `m` (no `*args` or `**kwargs`), undecorated, neither a generator nor a
  coroutine, declaring no `global` or `nonlocal` and making no function, lambda, class
  or comprehension; the call binds each argument to a parameter by position or keyword;
- `m`'s body, read with the parameter bound to the argument as *held* (it may hold the
  buffers), keeps nothing held: its statements are assignments to plain names,
  expressions, `return` of a value that holds nothing, `if`, `for` and `while`, `pass`;
  a name bound to a held value is held; a field or item of a held value, or a container
  holding one, is held; a held value is never called, operated on, formatted, iterated
  or used as an index, and no call is given one, but the variables of `apply` (its
  first argument; no `method=`, `mutable=`, `capture_intermediates=` or `*`, its other
  arguments holding nothing) of a parameter the call passes `self.g`, every store of
  which is `self.g = L(...)` of one linen class `L` of this module (held to the same
  premises as `f`) whose `apply` keeps and returns no variable
  (`facts/linen_outputs.py`), no statement setting an attribute `apply`; what `apply`
  returns then holds nothing.

Code given only values that hold nothing cannot reach the argument: the class whose
attribute it is hands `self` to nothing (`self_attrs.sealed_class`), and it was handed
only to `m`. Anything else is not proven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import scope_nodes
from autoopt.analysis.core.graph import MODULE, Function
from autoopt.analysis.facts.attribute_stores import stored_elsewhere
from autoopt.analysis.facts.linen_outputs import apply_holds_nothing
from autoopt.analysis.facts.self_attrs import Use, is_self_attr, is_store, uses, walk_parents
from autoopt.analysis.overlays import flax_linen as linen_api

_HELD = "held"
_CLEAN = ""
_LINEN = "linen:"
_APPLY = "flax.linen.Module.apply"
_APPLY_CODE = linen_api.RUNS_GIVEN_CODE | {"mutable"}
_MAKES_CODE = (
    cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.Yield,
    cst.Await, cst.NamedExpr, cst.FunctionDef, cst.ClassDef, cst.Global, cst.Nonlocal,
)  # fmt: skip


def handed_unkept(ctx: ModuleContext, use: Use, attr: str, call: cst.Call) -> bool:
    """Whether `call`, given the read `use` of `self.attr` in one argument, runs a
    method of a helper object that keeps no reference to it and returns none."""
    me = use.method.params[0]
    holding = [a for a in call.args if any(n is use.node for n, _ in walk_parents(a, None))]
    if len(holding) != 1 or any(a.star for a in call.args):
        return False
    reads = [n for a in call.args for n, _ in walk_parents(a, None) if is_self_attr(n, me, attr)]
    func = call.func
    if len(reads) != 1 or type(func) is not cst.Attribute:
        return False
    cls = _helper_class(ctx, use, func.value)
    fn = ctx.graph.functions.get(f"{cls}.{func.attr.value}") if cls else None
    if fn is None or fn.scope != cls or stored_elsewhere(ctx, fn.name, []):
        return False
    given = _bound(fn, call)
    if given is None:
        return False
    kinds = {p: _argument_kind(ctx, use, e) for p, e in given.items()}
    held = next(p for p, e in given.items() if e is holding[0].value)
    kinds[held] = _HELD
    try:
        _Reader(ctx).function(fn, kinds)
    except _Kept:
        return False
    return True


def _helper_class(ctx: ModuleContext, use: Use, expr: cst.BaseExpression) -> str | None:
    """The plain class of this module of the object `self.f` holds (`expr`)."""
    made = _stored_class(ctx, use, expr)
    if made is None:
        return None
    node = _class_node(ctx, made)
    if node is None or node.bases or node.keywords or node.decorators:
        return None
    if any(f"{made}.{m}" in ctx.graph.functions for m in ("__getattribute__", "__new__")):
        return None  # it may make, or hand out for `self.f.m`, anything
    for stmt in ctx.graph.stmts:
        if type(stmt.node) is cst.ClassDef and any(
            type(b.value) is cst.Name and b.value.value == made for b in stmt.node.bases
        ):
            return None
    return made


def _stored_class(ctx: ModuleContext, use: Use, expr: cst.BaseExpression) -> str | None:
    """`K` where `expr` is `self.f`, every store of which in the class's methods is
    `self.f = K(...)` and no other statement sets an attribute `f`."""
    me = use.method.params[0]
    if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
        return None
    if expr.value.value != me:
        return None
    name = expr.attr.value
    stores = [u for u in uses(ctx, use.method.scope, name) if is_store(u)]
    made: set[str] = set()
    for store in stores:
        node = store.stmt.node
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return None
        value = node.value
        if node.targets[0].target is not store.node or type(value) is not cst.Call:
            return None
        made.add(value.func.value if type(value.func) is cst.Name else "")
    if len(made) != 1 or stored_elsewhere(ctx, name, [s.stmt for s in stores]):
        return None
    if stored_elsewhere(ctx, "__class__", []):
        return None  # an object's class changed in place
    cls = made.pop()
    return cls if _class_node(ctx, cls) is not None else None


def _class_node(ctx: ModuleContext, cls: str) -> cst.ClassDef | None:
    """The class `cls` of this module, bound once."""
    if sum(cls in s.defs for s in ctx.graph.stmts) != 1:
        return None
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == cls:
            return stmt.node
    return None


def _bound(fn: Function, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """Each parameter of the method `fn` (after `self`) the call gives, and what."""
    params = fn.node.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None:
        return None
    if params.posonly_params or not fn.positional:
        return None
    positional = fn.positional[1:]
    named = set(positional) | {p.name.value for p in params.kwonly_params}
    given: dict[str, cst.BaseExpression] = {}
    ordered = [a for a in call.args if a.keyword is None]
    if len(ordered) > len(positional):
        return None
    for param, arg in zip(positional, ordered, strict=False):
        given[param] = arg.value
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value not in named or arg.keyword.value in given:
                return None
            given[arg.keyword.value] = arg.value
    return given


def _argument_kind(ctx: ModuleContext, use: Use, expr: cst.BaseExpression) -> str:
    """A linen model whose `apply` holds nothing (`self.model`), else a value."""
    cls = _stored_class(ctx, use, expr)
    return _LINEN + cls if cls and apply_holds_nothing(ctx, cls) else _CLEAN


class _Kept(Exception):
    """The method may keep, or return, what the held parameter holds."""


class _Reader:
    """Reads a method's body for which names may hold the held parameter's buffers."""

    def __init__(self, ctx: ModuleContext):
        self.ctx = ctx
        self.env: dict[str, str] = {}

    def function(self, fn: Function, given: dict[str, str]) -> None:
        node = fn.node
        if node.decorators or node.asynchronous is not None:
            raise _Kept
        if any(isinstance(n, _MAKES_CODE) for n in scope_nodes(node.body)):
            raise _Kept
        self.env = {p: given.get(p, _CLEAN) for p in fn.params}
        self._block(node.body)

    # -- statements -----------------------------------------------------------------
    def _block(self, body: cst.BaseSuite) -> None:
        if type(body) is not cst.IndentedBlock:
            raise _Kept
        for stmt in body.body:
            if type(stmt) is cst.SimpleStatementLine:
                for small in stmt.body:
                    self._small(small)
            else:
                self._compound(stmt)  # type: ignore[arg-type]  # an IndentedBlock's

    def _small(self, node: cst.BaseSmallStatement) -> None:
        if type(node) is cst.Assign:
            kind = self.expr(node.value)
            for target in node.targets:
                self._bind(target.target, kind)
        elif type(node) is cst.AugAssign and type(node.target) is cst.Name:
            self._clean(node.target)
            self._clean(node.value)
        elif type(node) is cst.Expr:
            self.expr(node.value)
        elif type(node) is cst.Return:
            if node.value is not None:
                self._clean(node.value)
        elif type(node) is not cst.Pass:
            raise _Kept

    def _compound(self, node: cst.BaseCompoundStatement) -> None:
        before = dict(self.env)
        if type(node) is cst.If:
            self._clean(node.test)
            self._block(node.body)
            after, self.env = self.env, dict(before)
            if type(node.orelse) is cst.If:
                self._compound(node.orelse)
            elif node.orelse is not None:
                self._block(node.orelse.body)
            self.env = _join(after, self.env)
        elif type(node) in (cst.For, cst.While) and node.orelse is None:  # type: ignore[attr-defined]  # a loop
            for _ in range(2):  # a kind a later statement binds reaches the next iteration
                if type(node) is cst.For:
                    self._bind(node.target, self._clean(node.iter))
                else:
                    self._clean(node.test)  # type: ignore[attr-defined]  # a While
                self._block(node.body)
                self.env = _join(before, self.env)
        else:
            raise _Kept

    def _bind(self, target: cst.BaseExpression, kind: str) -> None:
        if type(target) is cst.Name:
            self.env[target.value] = kind
        elif type(target) in (cst.Tuple, cst.List) and not kind.startswith(_LINEN):
            for element in target.elements:  # type: ignore[attr-defined]  # a Tuple or List
                if type(element) is not cst.Element:
                    raise _Kept
                self._bind(element.value, kind)
        else:
            raise _Kept  # an attribute or an item: a store

    # -- expressions ----------------------------------------------------------------
    def _clean(self, expr: cst.BaseExpression) -> str:
        """`expr`'s kind, which holds nothing of the held parameter."""
        kind = self.expr(expr)
        if kind == _HELD:
            raise _Kept
        return kind

    def expr(self, expr: cst.BaseExpression) -> str:
        kind = type(expr)
        if kind is cst.Name:
            return self.env.get(expr.value, _CLEAN)  # type: ignore[attr-defined]
        if isinstance(expr, cst.BaseNumber | cst.SimpleString | cst.ConcatenatedString):
            return _CLEAN
        if kind is cst.Attribute:
            return _HELD if self.expr(expr.value) == _HELD else _CLEAN  # type: ignore[attr-defined]
        if kind is cst.Subscript:
            for element in expr.slice:  # type: ignore[attr-defined]
                index = element.slice
                if type(index) is cst.Index:
                    self._clean(index.value)
                else:
                    for part in (index.lower, index.upper, index.step):
                        if part is not None:
                            self._clean(part)
            return _HELD if self.expr(expr.value) == _HELD else _CLEAN  # type: ignore[attr-defined]
        if kind in (cst.Tuple, cst.List, cst.Set):
            return self._container([e for e in expr.elements])  # type: ignore[attr-defined]
        if kind is cst.Dict:
            return self._entries(expr)  # type: ignore[arg-type]
        if kind is cst.Call:
            return self._call(expr)  # type: ignore[arg-type]
        if kind is cst.IfExp:
            self._clean(expr.test)  # type: ignore[attr-defined]
            body, other = self.expr(expr.body), self.expr(expr.orelse)  # type: ignore[attr-defined]
            return _HELD if _HELD in (body, other) else _CLEAN
        for node in scope_nodes(expr)[1:]:  # operators, f-strings: run code on operands
            if isinstance(node, cst.BaseExpression) and type(node) is cst.Name:
                self._clean(node)
        if kind in (cst.BinaryOperation, cst.BooleanOperation, cst.UnaryOperation):
            return _CLEAN
        if kind in (cst.Comparison, cst.FormattedString):
            return _CLEAN
        raise _Kept

    def _container(self, elements: list[cst.BaseElement]) -> str:
        kinds = set()
        for element in elements:
            if type(element) is not cst.Element:
                raise _Kept  # `*xs` iterates a value
            kinds.add(self.expr(element.value))
        return _HELD if _HELD in kinds else _CLEAN

    def _entries(self, expr: cst.Dict) -> str:
        kinds = set()
        for element in expr.elements:
            if type(element) is not cst.DictElement:
                raise _Kept  # `**d` iterates a value
            self._clean(element.key)
            kinds.add(self.expr(element.value))
        return _HELD if _HELD in kinds else _CLEAN

    # -- calls ----------------------------------------------------------------------
    def _call(self, call: cst.Call) -> str:
        func = call.func
        if type(func) is cst.Attribute and func.attr.value == "apply":
            receiver = self.expr(func.value)
            if receiver.startswith(_LINEN):
                return self._apply(call)
        self._clean(func)
        for arg in call.args:  # `*xs` iterates `xs`: code given nothing held
            self._clean(arg.value)
        return _CLEAN  # code given nothing held cannot reach it

    def _apply(self, call: cst.Call) -> str:
        """`model.apply(variables, x)`: the variables may be held; nothing else is, and
        no keyword runs code or returns collections."""
        if _APPLY not in linen_api.UNKEPT_APPLY or not call.args:
            raise _Kept
        if stored_elsewhere(self.ctx, "apply", []):
            raise _Kept  # `model.apply = keep`
        first, rest = call.args[0], call.args[1:]
        if first.keyword is not None or any(a.star for a in call.args):
            raise _Kept
        if any(a.keyword is not None and a.keyword.value in _APPLY_CODE for a in rest):
            raise _Kept
        self.expr(first.value)
        for arg in rest:
            self._clean(arg.value)
        return _CLEAN


def _join(one: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """Each name's kind after two paths: held on either, else the same on both, else a
    value."""
    out: dict[str, str] = {}
    for name in set(one) | set(other):
        kinds = {one.get(name, _CLEAN), other.get(name, _CLEAN)}
        out[name] = _HELD if _HELD in kinds else (kinds.pop() if len(kinds) == 1 else _CLEAN)
    return out
