"""Attributes read only while the donated one is None (for `facts/attributes.py`).

A trainer keeps its initial parameters beside the state it makes of them, and reads them
only while there is no state yet:

    def init_model(self, x):
        variables = self.model.init(key, x)
        self.init_params = variables["params"]
        self.state = None

    def init_optimizer(self):
        self.state = TrainState.create(
            params=self.init_params if self.state is None else self.state.params, ...)

A step donating `self.state` deletes the buffers `self.init_params` shares with it, yet
no read of `self.init_params` can follow while they are gone when (`none_reason`):

- every read of `self.a` is the body of `... if self.state is None else ...`
  (`none_guarded`), evaluated right after the test;
- `self.state` becomes None only by `self.state = None` right after statements storing
  each such `self.a` (each run of them but the first calling nothing): every store of
  `self.a` being new buffers (checked by the caller), they are then none a step donated.
  Every other store in `self.state` is not None: a `TrainState` made by
  `TrainState.create(...)` or its constructor (`facts/train_states.py`), or the output,
  unpacked by position or whole, of a `jax.jit` call of a function of this module given
  `self.state` there, whose every `return` gives at that position that parameter, or
  what `apply_gradients` or `replace` (`overlays.flax_training.SAME_AS_SELF`) of such a
  value gives: None only where the state given was None, which no step donates. A
  non-None state is thus always a `TrainState`, whose methods are flax's;
- no statement deletes `self.state` or writes it other than by `=`, and no code but the
  class's methods on `self` binds an attribute `state`; the caller proves the class
  closed for `a` (`self_attrs.closed_class`: no `setattr` and the like, no instance
  handed to code that might drop the state or read `a`, `a` named on nothing but
  `self` in the class's methods);
- the statement of such a read runs no code that may run a step before it stores what it
  read (`quiet_reason`): it calls only optax's optimizer constructors (which call none
  of their arguments), `TrainState.create` given such an optimizer (its `init` is
  optax's) and the constructor; it makes no function and reads no attribute of `self`
  that may be a descriptor. Code elsewhere cannot reach the instance meanwhile: the
  caller proves it confined (`trainer_steps.confinement`: a step runs outside the class
  only as a direct call on a holder in its own scope, which no other function reads).

So `self.state is None` holds only while each `self.a` holds buffers no step donated.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables, rebound_attribute_jits
from autoopt.analysis.core.names import dotted
from autoopt.analysis.facts.class_family import root_class
from autoopt.analysis.facts.fresh import held_fields
from autoopt.analysis.facts.self_attrs import (
    Use,
    assign_targets,
    descriptor_reason,
    is_self_attr,
    roots,
    uses,
    walk_parents,
)
from autoopt.analysis.facts.train_states import create_static, record_static
from autoopt.analysis.overlays import flax_training as training_api
from autoopt.analysis.overlays import optax as optax_api

#: Expressions that make a function (or run code later than where they stand).
_NESTED = (cst.Lambda, cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp)
#: The methods of a `TrainState` whose result has its structure: never None.
_SAME_AS_SELF = frozenset(name.rsplit(".", 1)[1] for name in training_api.SAME_AS_SELF)


def none_guarded(use: Use, attr: str) -> bool:
    """The read `use` is the body of `... if self.attr is None else ...`."""
    parent = use.parent
    if type(parent) is not cst.IfExp or parent.body is not use.node:
        return False
    return is_none_test(parent.test, use.method.params[0], attr)


def quiet_reason(ctx: ModuleContext, use: Use, cls: str) -> str | None:
    """Why the statement of the read `use` may run a step on the instance while it holds
    what it read (None: it calls only `TrainState.create` given a library optimizer, the
    constructor, and optax's optimizer constructors, which call none of their arguments;
    it makes no function, and no attribute of `self` it reads may be a descriptor)."""
    stmt, me = use.stmt, use.method.params[0]
    line = ctx.span(stmt.node).line
    for node in stmt.own_nodes:
        if isinstance(node, _NESTED):
            return f"line {line} makes a function that code it calls may run"
        if type(node) is cst.Call and not _quiet_call(ctx, stmt, node):
            return f"`{ctx.code(node.func)}(...)` at line {line} may run a step first"
        on_self = type(node) is cst.Attribute and type(node.value) is cst.Name
        if on_self and node.value.value == me:  # type: ignore[attr-defined]
            reason = descriptor_reason(ctx, cls, node.attr.value)  # type: ignore[attr-defined]
            if reason is not None:
                return reason
    return None


def _quiet_call(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    if (ctx.qualify(call.func) or "") in optax_api.OPTIMIZERS:
        return True
    if create_static(ctx, call) is not None:
        return held_fields(ctx, stmt, call) is not None  # `tx.init` of a library optimizer
    return record_static(ctx, call) is not None


def is_none_test(test: cst.BaseExpression, me: str, attr: str) -> bool:
    """`me.attr is None`, exactly."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    none = type(target.comparator) is cst.Name and target.comparator.value == "None"
    return is_self_attr(test.left, me, attr) and type(target.operator) is cst.Is and none


def none_reason(ctx: ModuleContext, cls: str, attr: str, guarded: frozenset[str]) -> str | None:
    """Why `self.attr` of `cls` may be None once a step donated what the attributes
    `guarded` hold (None: it is None only while each holds buffers no step donated)."""
    return ctx.per_module(_none_reason, root_class(ctx, cls), attr, guarded)


def _none_reason(ctx: ModuleContext, cls: str, attr: str, guarded: frozenset[str]) -> str | None:
    for use in uses(ctx, cls, attr):
        line = ctx.span(use.stmt.node).line
        if not any(n is use.node for n in _bound_nodes(use.stmt)):
            continue  # a read
        if type(use.stmt.node) is cst.Del:
            return f"it is deleted at line {line}"
        reason = _store_reason(ctx, use, attr, guarded)
        if reason is not None:
            return reason
    return _outside_store(ctx, cls, attr)


def _store_reason(ctx: ModuleContext, use: Use, attr: str, guarded: frozenset[str]) -> str | None:
    """Why the store `use` may make `self.attr` None while a guarded attribute holds
    donated buffers (None: it cannot)."""
    node, line = use.stmt.node, ctx.span(use.stmt.node).line
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return f"it is written at line {line} other than by `=` to it alone"
    target, value = node.targets[0].target, node.value
    if target is use.node and type(value) is cst.Name and value.value == "None":
        missing = guarded - _stored_before(ctx, use, guarded)
        if missing:
            names = ", ".join(f"`self.{a}`" for a in sorted(missing))
            return f"it is stored `None` at line {line} with no store in {names} just before"
        return None
    if target is use.node and type(value) is cst.Call and record_static(ctx, value) is not None:
        return None
    index = _position(target, use.node)
    if type(value) is cst.Call and index != -1 and _step_output(ctx, use, attr, value, index):
        return None
    return f"the value stored in it at line {line} may be None"


def _position(target: cst.BaseExpression, node: cst.CSTNode) -> int | None:
    """None when `target` is `node`, its index in a flat tuple or list of targets with
    nothing starred, -1 otherwise."""
    if target is node:
        return None
    if type(target) not in (cst.Tuple, cst.List):
        return -1
    elements = target.elements  # type: ignore[attr-defined]
    if any(type(e) is not cst.Element for e in elements):
        return -1
    return next((i for i, e in enumerate(elements) if e.value is node), -1)


def _stored_before(ctx: ModuleContext, use: Use, guarded: frozenset[str]) -> frozenset[str]:
    """The guarded attributes that the statements right before the store `use` in its
    block store, walking back over plain stores in them to the first statement that
    calls something (nothing runs between their values and `use`)."""
    me, stmt = use.method.params[0], use.stmt
    earlier = [s for s in ctx.graph.scope_stmts(stmt.scope) if s.id < stmt.id]
    stored: set[str] = set()
    for prior in reversed(earlier):
        node = prior.node
        if prior.block != stmt.block or type(node) is not cst.Assign or len(node.targets) != 1:
            break
        names = {_guarded_name(t, me, guarded) for t in assign_targets(node)}
        if None in names:
            break
        stored |= names  # type: ignore[arg-type]  # no None
        if prior.calls:
            break
        stmt = prior
    return frozenset(stored)


def _guarded_name(target: cst.BaseExpression, me: str, guarded: frozenset[str]) -> str | None:
    return next((a for a in guarded if is_self_attr(target, me, a)), None)


def _step_output(
    ctx: ModuleContext, use: Use, attr: str, call: cst.Call, index: int | None
) -> bool:
    """`call` runs a `jax.jit` of a function of this module given `self.attr`, whose
    output (at `index` of the tuple it returns, or whole) is None only where that
    argument was."""
    name = dotted(call.func)
    found = [*jitted_callables(ctx, True), *rebound_attribute_jits(ctx, True)]
    jits = [j for j in found if j.name == name]
    if not jits or any(j.transform != "jax.jit" or j.function is None for j in jits):
        return False
    position = _given_at(call, use.method.params[0], attr)
    return position is not None and all(
        _returns_given(ctx, j.function, position, index)  # type: ignore[arg-type]  # not None
        for j in jits
    )


def _given_at(call: cst.Call, me: str, attr: str) -> int | None:
    """The position at which `call` gives `me.attr` (after positional arguments only)."""
    for i, arg in enumerate(call.args):
        if arg.star or arg.keyword is not None:
            return None
        if is_self_attr(arg.value, me, attr):
            return i
    return None


def _returns_given(ctx: ModuleContext, fn: Function, position: int, index: int | None) -> bool:
    """Every `return` of `fn` gives (at `index` of a tuple) its parameter at `position`
    or a `TrainState` method's result on it, and (returned whole) its body ends in one."""
    params = fn.positional
    if fn.is_generator or fn.node.asynchronous is not None or position >= len(params):
        return False
    body = fn.node.body.body
    last = body[-1] if body else None
    if index is None and not (
        type(last) is cst.SimpleStatementLine and type(last.body[-1]) is cst.Return
    ):
        return False  # it may fall off its end, returning None
    returns = [s for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    for stmt in returns:
        value = stmt.node.value  # type: ignore[attr-defined]  # a Return statement
        if index is not None:
            if type(value) is not cst.Tuple or any(
                type(e) is not cst.Element for e in value.elements
            ):
                return False
            value = value.elements[index].value if index < len(value.elements) else None
        if value is None or not _of_given(ctx, fn, stmt, value, params[position], set()):
            return False
    return bool(returns)


def _of_given(
    ctx: ModuleContext, fn: Function, at: Stmt, expr: cst.BaseExpression, param: str, seen: set[int]
) -> bool:
    """`expr`, read at `at`, is the parameter `param`, or `apply_gradients` or `replace`
    called on such a value, or a local bound only to such values."""
    if type(expr) is cst.Call:
        func = expr.func
        method = type(func) is cst.Attribute and func.attr.value in _SAME_AS_SELF
        return method and _of_given(ctx, fn, at, func.value, param, seen)  # type: ignore[attr-defined]
    if type(expr) is not cst.Name or expr.value in fn.globals | fn.nonlocals:
        return False
    defs = ctx.graph.reaching_defs(at, expr.value)
    if not defs and expr.value != param:
        return False
    for binder in defs:
        if binder.id in seen:
            continue  # a loop: the value bound there is one of these
        seen.add(binder.id)
        node = binder.node
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return False
        target = node.targets[0].target
        if type(target) is not cst.Name or target.value != expr.value:
            return False
        if not _of_given(ctx, fn, binder, node.value, param, seen):
            return False
    return True


def _outside_store(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """Where code other than the class's methods on `self` binds or deletes an attribute
    named `attr` (None: nowhere)."""
    inside = {id(u.node) for u in uses(ctx, cls, attr)}
    for stmt in ctx.graph.stmts:
        for node in _bound_nodes(stmt):
            named = type(node) is cst.Attribute and node.attr.value == attr
            if named and id(node) not in inside:
                line = ctx.span(stmt.node).line
                return f"`{ctx.code(node)}` at line {line} binds or deletes it outside `{cls}`"
    return None


def _bound_nodes(stmt: Stmt) -> list[cst.CSTNode]:
    """The targets `stmt` binds or deletes (tuples opened), comprehensions' included."""
    node = stmt.node
    todo: list[cst.CSTNode] = []
    if type(node) is cst.Assign:
        todo += [t.target for t in node.targets]
    elif type(node) in (cst.AugAssign, cst.AnnAssign, cst.For, cst.Del):
        todo.append(node.target)  # type: ignore[attr-defined]
    elif type(node) is cst.With:
        todo += [i.asname.name for i in node.items if i.asname is not None]
    for root in roots(stmt):
        todo += [n.target for n, _ in walk_parents(root, None) if type(n) is cst.CompFor]
    found: list[cst.CSTNode] = []
    while todo:
        target = todo.pop()
        if type(target) in (cst.Tuple, cst.List):
            todo += [e.value for e in target.elements]  # type: ignore[attr-defined]
        elif type(target) is cst.StarredElement:
            todo.append(target.value)
        else:
            found.append(target)
    return found
