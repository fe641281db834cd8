"""A field handed to a shape method of an object of unknown kind (for `linen_fields.py`).

`img_to_patch(x, self.patch_size)` reshapes `x`, the input of `__call__`, with a field:
`x.reshape(b, h // p, p)`. The input may be any object, whose `reshape` may keep the
field and hand it back, now or from a later method. `on_data_path` proves the field
becomes no variable all the same: every value that may hold it (the call's result, and
the receiver object from then on) reaches only

- an operand of arithmetic or a comparison, a test, a bound of a slice or an index (as
  `linen_fields` counts a field there: the result is a new value);
- a field or item of it (`x.shape[1]`), or one branch of a conditional expression,
  followed in turn;
- the receiver or an argument (`*x.shape[3:]` too) of a shape method
  (`jax_api.SHAPE_METHODS`) of such a value, of a local name or parameter (followed from
  then on as above), or of an array the class makes in `setup` with `self.param(name,
  init, ...)`, `init` a library initializer: the call is followed in turn;
- the input (the first positional argument) of a layer of `flax_linen.APPLY_PURE_LAYERS`
  the class stores in `setup` alone (`self.input_layer(x)`): its variables come from
  its initializers (`init` leaves `BatchNorm`'s statistics as made), and its output is
  new, but a `Dropout`'s, which may be its input itself, followed in turn;
- the value bound to a plain name, or unpacked into plain names, each followed to the
  reads its binding reaches;
- an argument of a module-level function of this module (sealed, bound once, with no
  decorator: `linen_fields._helper_inert`'s premises), followed to the reads of the
  parameter it binds, and its `return` to the value of the call being followed.

A receiver name is followed from each binding that reaches it, each the result of a
shape method (which only the object it was called on, followed already, may hold
besides), and from the parameter it may still be. A parameter is read where no binding
before it on every path rebinds it. A parameter of a function followed from a call is
the object the call passes, a plain name, followed in the caller too; a parameter of
`__call__` of a linen module class that no code of a class in the module builds (a
model, never a submodule: only `init` and `apply` hand it its input) is followed no
further. Module functions are followed `_MAX_CALLS` calls deep. Anything else (a method
call, a store, a `return` from a method, a layer built inline) is not proven.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs, read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.facts.sealed import sealed_code
from autoopt.analysis.facts.self_attrs import assign_targets, method_targets, walk_parents
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.overlays import jax as jax_api

_OPERATIONS = (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget)
_TESTS = (cst.If, cst.While, cst.Assert)
_INITIALIZERS = ".initializers."
_DROPOUT = "flax.linen.Dropout"
#: How many calls of module functions deep a value is followed.
_MAX_CALLS = 4
#: The calls being followed, innermost last: a `return` reaches the last one's value.
Sites = tuple[CallSite, ...]


def on_data_path(ctx: ModuleContext, call: cst.Call, arg: cst.Arg, sites: Sites) -> bool:
    """Whether `call`, a shape method given a field as `arg` (`x.reshape(..., p)`),
    reached through the calls `sites`, keeps the field off every variable."""
    return _Walk(ctx).argument(call, arg, sites)


class _Walk:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self.done: set[tuple[object, ...]] = set()  # (what, the calls followed) followed

    def _first(self, key: tuple[object, ...], sites: Sites) -> bool:
        """Whether `key` is followed for the first time through the calls `sites` (a
        second time, it is being followed already: a cycle adds no place)."""
        seen = (*key, *(id(s.call) for s in sites))
        if seen in self.done:
            return False
        self.done.add(seen)
        return True

    def argument(self, call: cst.Call, arg: cst.Arg, sites: Sites) -> bool:
        """A value that may hold the field is `arg` of `call`: a shape method's, or the
        input of a set-up layer."""
        func = call.func
        stmt = _statement(self.ctx, call)
        if stmt is None or type(func) is not cst.Attribute:
            return False
        if func.attr.value in jax_api.SHAPE_METHODS:
            receiver = func.value
            if type(receiver) is cst.Attribute and self._set_up(stmt, receiver, _made_param):
                return True  # an array's shape method returns its own data
            return self._receiver(receiver, sites) and self.value(call, sites)
        first = call.args[0] if call.args else None
        if arg is not first or arg.keyword is not None or any(a.star for a in call.args):
            return False
        layers = self._set_up(stmt, func, _pure_layer)
        if not layers:
            return False
        # a `Dropout` may return its input itself (`deterministic`); another layer's
        # output is new, and its variables come from its initializers
        dropout = any(self.ctx.qualify(v.func) == _DROPOUT for v in layers)
        return not dropout or self.value(call, sites)

    def value(self, node: cst.CSTNode, sites: Sites) -> bool:
        """Every place the value of `node` reaches is on the data path."""
        if not self._first((id(node),), sites):
            return True
        path = self.ctx.ancestors(node)
        parent = path[-2]
        if isinstance(parent, (*_OPERATIONS, *_TESTS)):
            return True
        if type(parent) in (cst.Index, cst.Slice, cst.SubscriptElement):
            return True
        if type(parent) is cst.IfExp:
            return parent.test is node or self.value(parent, sites)
        if type(parent) in (cst.Attribute, cst.Subscript) and parent.value is node:  # type: ignore[attr-defined]
            return self.value(parent, sites)
        if type(parent) is cst.Call and parent.func is node:
            shaped = type(node) is cst.Attribute and node.attr.value in jax_api.SHAPE_METHODS
            return shaped and self.value(parent, sites)
        if type(parent) is cst.Arg and parent.value is node and type(path[-3]) is cst.Call:
            return self._given(path[-3], parent, sites)
        if type(parent) is cst.Assign and parent.value is node:
            return self._bound(parent, sites)
        if type(parent) is cst.Return:
            return self._returned(parent, sites)
        return False

    def _given(self, call: cst.Call, arg: cst.Arg, sites: Sites) -> bool:
        """The value is `arg` of `call`: a shape method, a set-up layer, or a helper."""
        if self.argument(call, arg, sites):
            return True
        func = call.func
        stmt = _statement(self.ctx, call)
        if type(func) is not cst.Name or stmt is None or any(a.star for a in call.args):
            return False
        fn = _helper(self.ctx, stmt, func.value)
        if fn is None or len(sites) >= _MAX_CALLS:
            return False
        site = CallSite(stmt, call, fn)
        bound = {p: site.argument(i, p) for i, p in enumerate(fn.positional)}
        bound |= {
            p.name.value: site.argument(0, p.name.value) for p in fn.node.params.kwonly_params
        }
        param = next((p for p, e in bound.items() if e is arg.value), None)
        return param is not None and self._parameter(fn, param, (*sites, site))

    def _bound(self, node: cst.Assign, sites: Sites) -> bool:
        """`name = value` or `a, b = value`: each name's reads from this binding."""
        stmt = _statement(self.ctx, node)
        if stmt is None or len(node.targets) != 1:
            return False
        target = node.targets[0].target
        parts: list[cst.BaseExpression] = [target]
        if type(target) in (cst.Tuple, cst.List):
            parts = [e.value for e in target.elements]  # type: ignore[attr-defined]
        names = [p.value for p in parts if type(p) is cst.Name]
        if len(names) != len(parts):
            return False  # a starred target, an attribute or an item: a store
        return all(self._binding(stmt, n, sites) for n in names)

    def _binding(self, stmt: Stmt, name: str, sites: Sites) -> bool:
        """The reads of `name` that its binding at `stmt` reaches."""
        if not self._first((stmt.id, name), sites):
            return True
        return all(self._reads(u, name, sites) for u in self.ctx.graph.uses_of(stmt, name))

    def _reads(self, stmt: Stmt, name: str, sites: Sites) -> bool:
        node = stmt.node
        bound = {id(t) for t in assign_targets(node)} if type(node) is cst.Assign else set()
        exprs = evaluated_exprs(node)
        reads = [n for e in exprs for n in read_names(e) if n.value == name]
        return all(self.value(n, sites) for n in reads if id(n) not in bound)

    def _returned(self, node: cst.Return, sites: Sites) -> bool:
        """`return value` of the function the last call being followed runs."""
        stmt = _statement(self.ctx, node)
        if not sites or stmt is None or stmt.scope != sites[-1].function.qualname:  # type: ignore[union-attr]
            return False
        return self.value(sites[-1].call, sites[:-1])

    def _receiver(self, receiver: cst.BaseExpression, sites: Sites) -> bool:
        """The object whose shape method is given the value may keep it: a name, followed
        from here on."""
        stmt = _statement(self.ctx, receiver)
        if stmt is None or type(receiver) is not cst.Name:
            return False
        name = receiver.value
        fn = self.ctx.graph.functions.get(stmt.scope)
        if fn is None or name in fn.globals | fn.nonlocals:
            return False
        defs = self.ctx.graph.reaching_defs(stmt, name)
        if not all(_shaped(d, name) and self._binding(d, name, sites) for d in defs):
            return False  # bound to an object other names may hold
        if any(self.ctx.graph.dominates(d, stmt) for d in defs):
            return True  # the parameter cannot reach
        return name in fn.params and self._parameter(fn, name, sites)

    def _parameter(self, fn: Function, name: str, sites: Sites) -> bool:
        """The parameter `name` of `fn` may hold the value: its reads in `fn`, and the
        object the call being followed passes."""
        if not self._first((fn.qualname, name), sites):
            return True
        if name in fn.globals | fn.nonlocals:
            return False
        stmts = self.ctx.graph.scope_stmts(fn.qualname)
        for stmt in stmts:
            defs = self.ctx.graph.reaching_defs(stmt, name)
            killed = any(self.ctx.graph.dominates(d, stmt) for d in defs)
            if name in stmt.uses and not killed and not self._reads(stmt, name, sites):
                return False
        if sites and sites[-1].function is fn:
            site = sites[-1]
            given = (
                site.argument(fn.positional.index(name), name) if name in fn.positional else None
            )
            if type(given) is not cst.Name:
                return False
            return self._receiver(given, sites[:-1])
        return fn.is_method and fn.name == "__call__" and _model_only(self.ctx, fn.scope)

    def _set_up(
        self, stmt: Stmt, attr: cst.Attribute, made: Callable[[ModuleContext, cst.Call], bool]
    ) -> list[cst.Call]:
        """The values stored in `self.a`, in a method of a linen class whose every store
        of `a` is in `setup` and a call `made` holds of ([]: not so)."""
        fn = self.ctx.graph.functions.get(stmt.scope)
        base = attr.value
        if fn is None or not fn.params or type(base) is not cst.Name or base.value != fn.params[0]:
            return []
        stores = _stores(self.ctx, fn.scope, attr.attr.value)
        calls = [v for where, v in stores if where == "setup" and type(v) is cst.Call]
        if len(calls) != len(stores) or not all(made(self.ctx, c) for c in calls):
            return []
        return calls


def _shaped(stmt: Stmt, name: str) -> bool:
    """`name = r.reshape(...)`: the object a shape method returns, which only the
    object it was called on may hold besides."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if type(target) is not cst.Name or target.value != name or type(value) is not cst.Call:
        return False
    func = value.func
    return type(func) is cst.Attribute and func.attr.value in jax_api.SHAPE_METHODS


def _statement(ctx: ModuleContext, node: cst.CSTNode) -> Stmt | None:
    """The graph's statement holding `node`."""
    for ancestor in reversed(ctx.ancestors(node)):
        found = ctx.graph.by_node.get(ancestor)
        if found is not None:
            return found
    return None


def _stores(ctx: ModuleContext, cls: str, attr: str) -> list[tuple[str, cst.BaseExpression | None]]:
    """(method, value) for each store of an attribute `attr` in the methods of `cls`."""
    found: list[tuple[str, cst.BaseExpression | None]] = []
    for fn, node, target in method_targets(ctx, cls):
        stored = [n for n, _ in walk_parents(target, None) if type(n) is cst.Attribute]
        if any(n.attr.value == attr for n in stored):
            value = node.value if type(node) is cst.Assign else None
            single = type(node) is cst.Assign and target is node.targets[0].target
            found.append((fn.name if single else "", value))
    return found


def _pure_layer(ctx: ModuleContext, value: cst.Call) -> bool:
    """A layer of `APPLY_PURE_LAYERS` (`nn.Dense(n)`)."""
    return (ctx.qualify(value.func) or "") in linen_api.APPLY_PURE_LAYERS


def _made_param(ctx: ModuleContext, value: cst.Call) -> bool:
    """`self.param(name, init, ...)`, `init` a library initializer: a new array."""
    if type(value.func) is not cst.Attribute:
        return False
    if value.func.attr.value != "param" or len(value.args) < 2:
        return False
    if any(a.star or a.keyword for a in value.args[:2]):
        return False
    init = value.args[1].value
    init = init.func if type(init) is cst.Call else init
    return _INITIALIZERS in (ctx.qualify(init) or "")


def bound_once(ctx: ModuleContext, at: Stmt, name: str) -> bool:
    """`name` read at `at` is the module function: bound once in the module, by no
    other scope, and rebound through no namespace."""
    module = sum(name in s.defs for s in ctx.graph.scope_stmts(MODULE)) == 1
    local = any(name in s.defs for s in ctx.graph.stmts if s.scope != MODULE)
    declared = any(name in f.globals | f.nonlocals for f in ctx.graph.functions.values())
    return module and not local and not declared and not rebinding(ctx).how(name)


def _helper(ctx: ModuleContext, at: Stmt, name: str) -> Function | None:
    """The module-level function `name` read at `at`: undecorated, bound once in the
    module, by no other scope, and its code sealed."""
    fn = ctx.graph.functions.get(name)
    if fn is None or fn.scope != MODULE or fn.node.decorators:
        return None
    if not bound_once(ctx, at, name) or not sealed_code(ctx, fn.qualname):
        return None
    return fn


def _model_only(ctx: ModuleContext, cls: str) -> bool:
    """No code of a class of the module that derives from anything (a linen module may
    derive from another class of the module) names `cls` or an attribute `__call__`,
    and no class derives from `cls`: its instances are built outside modules, so only
    `init` and `apply` call it, with their own arguments."""
    classes = set()
    for stmt in ctx.graph.stmts:
        node = stmt.node
        if type(node) is cst.ClassDef and any(ctx.code(b.value) != "object" for b in node.bases):
            classes.add(node.name.value if stmt.scope == MODULE else stmt.scope.split(".")[0])
    for stmt in ctx.graph.stmts:
        node = stmt.node
        if type(node) is cst.ClassDef and any(
            n.value == cls for b in node.bases for n in read_names(b.value)
        ):
            return False
        if stmt.scope.split(".")[0] not in classes:
            continue
        for expr in evaluated_exprs(node):
            if any(n.value == cls for n in read_names(expr)):
                return False
            if any(
                type(n) is cst.Attribute and n.attr.value == "__call__"
                for n, _ in walk_parents(expr, None)
            ):
                return False
    return True
