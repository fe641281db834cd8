"""Functions a module-level value holds, which a call through the value may run.

A value built by a call that was handed a function holds that function: `tx =
optax.sgd(learning_rate=lambda count: BASE_LR * 0.9**count)` holds the lambda, and
`tx.update(...)` calls it. Whatever reads the value (calls it, calls its methods, hands it
on) may run the held function, so what that function reads from outside is read too
(`analysis/facts/summaries.py` judges it as a direct call's). `held_by(ctx, name)` lists
what the module-level `name`, bound once outside loops (`closures.module_binding`), holds:

- a lambda bound to it, or handed to the call that built it (any argument, at any depth
  of nested calls and containers: `optax.chain(optax.clip(1.0), optax.sgd(lr_fn))`);
- a project function named there (`optax.sgd(schedule)`, `functools.partial(f, k=2)`),
  or one another module-level name holds (`jax.vmap(f)`, a factory's closure);
- a bound method of a module-level instance of a module class without base classes
  (`sched.rate` of `sched = Plateau(0.1)`): the method, and the receiver's state, which
  `self.x = ...` in another method or `sched.x = ...` anywhere changes;
- what another such module-level name holds, transitively (`sched = lambda c: ...`,
  `tx = optax.sgd(sched)`).

Any other attribute of a module-level instance (inherited, or data that may be a
function), or of a value autoopt cannot see, is `unseen`: a function the value may
hold, code autoopt cannot see. An attribute of a module (installed code) holds nothing
autoopt follows.

A `jax.custom_vjp` or `jax.custom_jvp` function's registered rules are part of the
function (`registered_rules`): `f.defvjp(fwd, bwd)`, `f.defjvp(rule)` called anywhere the
module's `f` is seen, and `@f.defjvp` decorating a function; `f` is the function's own
name or a module-level name bound once to JAX transforms of it (`f = jax.custom_vjp(g)`).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.project import project_function
from autoopt.analysis.core.walk import child_list
from autoopt.analysis.facts import purity
from autoopt.analysis.facts.closures import factory_closure, module_binding
from autoopt.analysis.facts.library_objects import enclosing_function, refers_to_global
from autoopt.analysis.facts.self_attrs import class_node
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Kinds of values that are data, never a function a call through the holder may run.
_DATA = (
    Kind.ARRAY, Kind.HOST_ARRAY, Kind.DTYPE, Kind.NONE, Kind.SCALAR, Kind.STRING, Kind.SHAPE,
)  # fmt: skip


@dataclass(frozen=True)
class Held:
    """One function a value holds: `fn` (a def) or `lam` (a lambda at module level)."""

    what: str  # how a message names it: "the lambda `lambda c: c`", "the function `f`"
    stmt: Stmt  # the module-level statement that binds the holder
    fn: Function | None = None
    home: ModuleContext | None = None  # the file that defines `fn`, if another
    lam: cst.Lambda | None = None
    receiver: str = ""  # the module-level instance whose bound method `fn` is
    unseen: bool = False  # a function autoopt cannot see


def held_by(ctx: ModuleContext, name: str) -> list[Held]:
    """What the module-level `name` holds (nothing where it is not bound once, outside
    loops, to a lambda or a call)."""
    return _held_by(ctx, name, frozenset())


def _held_by(ctx: ModuleContext, name: str, seen: frozenset[str]) -> list[Held]:
    value = module_binding(ctx, name)
    if value is None or name in seen:
        return []
    stmt = next(s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs)
    found = [h for n in _handed(value) for h in _resolve(ctx, stmt, n, seen | {name})]
    if type(value) is cst.Call and _returns_code(ctx, stmt, value):
        found.append(Held(f"what `{ctx.code(value.func)}` returns", stmt, unseen=True))
    return found


def _returns_code(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    """Whether `call` runs a project function whose result may be a function (one a
    factory returns that `closures.py` does not resolve)."""
    func = call.func
    local = ctx.graph.resolve_function(func.value, MODULE) if type(func) is cst.Name else None
    qual = ctx.qualify(func)
    if local is None and (qual is None or project_function(ctx, qual) is None):
        return False
    return model(ctx).value_of(stmt, call).kind in (Kind.CALLABLE, Kind.UNKNOWN)


def held_locally(ctx: ModuleContext, scope: str, name: str) -> list[Held] | None:
    """What `name`, bound in the function `scope` once, outside loops, holds, where its
    value names no other local (`_handed`) but those holding data there (an array);
    None where that is not proven."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or name in fn.params:
        return None
    defs = [s for s in ctx.graph.scope_stmts(scope) if name in s.defs]
    node = defs[0].node if len(defs) == 1 else None
    if type(node) is not cst.Assign or defs[0].loops or len(node.targets) != 1:
        return None
    local = {n for s in ctx.graph.scope_stmts(scope) for n in s.defs} | set(fn.params)
    handed = [n for n in _handed(node.value) if not _local_data(ctx, defs[0], n, local)]
    if any(type(n) is cst.Name and n.value in local for n in handed):
        return None
    return [h for n in handed for h in _resolve(ctx, defs[0], n, frozenset({name}))]


def _local_data(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression, local: set[str]) -> bool:
    """`node` is a local name that holds data where `stmt` reads it (no function)."""
    if type(node) is not cst.Name or node.value not in local:
        return False
    return model(ctx).value_of(stmt, node).kind in _DATA


def _handed(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The lambdas, names and attributes an argument evaluates to or hands on: itself,
    or inside its calls' arguments and its containers (not a call's own callee)."""
    if type(expr) in (cst.Lambda, cst.Name, cst.Attribute):
        return [expr]
    if type(expr) is cst.Call:
        return [n for a in expr.args for n in _handed(a.value)]
    return [n for c in child_list(expr) if isinstance(c, cst.BaseExpression) for n in _handed(c)]


def _resolve(
    ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression, seen: frozenset[str]
) -> list[Held]:
    if type(node) is cst.Lambda:
        return [_lambda(ctx, stmt, node)]
    if type(node) is cst.Name:
        return _named(ctx, stmt, node.value, seen)
    if type(node) is cst.Attribute:
        return _attribute(ctx, stmt, node)
    return []


def _lambda(ctx: ModuleContext, stmt: Stmt, node: cst.Lambda) -> Held:
    return Held(_lambda_text(ctx, node), stmt, lam=node)


def _lambda_text(ctx: ModuleContext, node: cst.Lambda) -> str:
    """How a message names a lambda: its code where short."""
    code = " ".join(ctx.code(node).split())
    return f"the lambda `{code}`" if len(code) <= 60 else "a lambda"


def _named(ctx: ModuleContext, stmt: Stmt, name: str, seen: frozenset[str]) -> list[Held]:
    fn = (
        ctx.graph.resolve_function(name, MODULE)
        or purity.transformed_function(ctx, name)
        or factory_closure(ctx, name)
    )
    if fn is not None:
        return [Held(f"the function `{fn.name}`", stmt, fn=fn)]
    return _held_by(ctx, name, seen)


def _attribute(ctx: ModuleContext, stmt: Stmt, node: cst.Attribute) -> list[Held]:
    """A bound method of a module-level instance of a module class; another file's
    function; an attribute of a module (installed code) or data read now: nothing held;
    anything else a function autoopt may not see."""
    code = ctx.code(node)
    if type(node.value) is cst.Name:
        cls = instance_class(ctx, node.value.value)
        if cls is not None:
            method = ctx.graph.functions.get(f"{cls}.{node.attr.value}")
            if method is None or _has_bases(ctx, cls):
                return [Held(f"`{code}`", stmt, unseen=True)]
            name = node.value.value
            return [Held(f"the bound method `{code}`", stmt, fn=method, receiver=name)]
    qual = ctx.qualify(node)
    if qual is not None:
        found = project_function(ctx, qual)
        return [Held(f"the function `{code}`", stmt, fn=found[1], home=found[0])] if found else []
    if model(ctx).value_of(stmt, node).kind in _DATA or _arrays_attribute(ctx, stmt, node):
        return []
    return [Held(f"`{code}`", stmt, unseen=True)]


def _arrays_attribute(ctx: ModuleContext, stmt: Stmt, node: cst.Attribute) -> bool:
    """An attribute of a library object that an overlay lists as holding arrays
    (`es.default_params` of an evosax strategy, `overlays.ARRAYS_ATTRIBUTES`)."""
    base = model(ctx).value_of(stmt, node.value)
    attribute = f"{base.detail}.{node.attr.value}"
    return base.kind is Kind.OBJECT and attribute in overlays.ARRAYS_ATTRIBUTES


def instance_class(ctx: ModuleContext, name: str) -> str | None:
    """The module class whose instance the module-level `name` is bound once to."""
    value = module_binding(ctx, name)
    if type(value) is not cst.Call or type(value.func) is not cst.Name:
        return None
    cls = value.func.value
    return cls if cls in ctx.graph.classes else None


def _has_bases(ctx: ModuleContext, cls: str) -> bool:
    """Whether the module class `cls` names base classes (whose methods autoopt does not
    follow here)."""
    node = class_node(ctx, cls)
    return node is None or bool(node.bases) or bool(node.keywords)


def state_changes(ctx: ModuleContext, receiver: str) -> list[str]:
    """Where the state of the module-level instance `receiver` of a module class changes:
    a method of the class (not `__init__`) writing `self`, or a statement writing
    `receiver`."""
    cls = instance_class(ctx, receiver)
    found = []
    for fn in ctx.graph.functions.values():
        if fn.scope == cls and fn.name != "__init__" and fn.params:
            me = fn.params[0]
            if any(me in s.mutates for s in ctx.graph.scope_stmts(fn.qualname)):
                found.append(f"`{cls}.{fn.name}`")
    for stmt in ctx.graph.stmts:
        if receiver in stmt.mutates and _refers_to_module(ctx, stmt, receiver):
            where = ctx.graph.functions.get(stmt.scope)
            found.append(f"`{where.name}`" if where is not None else "the module")
    return list(dict.fromkeys(found))


def _refers_to_module(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    return refers_to_global(ctx, enclosing_function(ctx, stmt.scope), name)


def registered_rules(ctx: ModuleContext, fn: Function) -> list[Held]:
    """The rules registered on the custom-derivative function `fn`, wherever the module
    registers them (a rule autoopt cannot resolve is `unseen`)."""
    names = {fn.name} if fn.scope == MODULE else set()
    names |= {
        n
        for s in ctx.graph.scope_stmts(MODULE)
        for n in s.defs
        if purity.transformed_function(ctx, n) is fn
    }
    if not names:
        return []
    found: list[Held] = []
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            method = _rule_method(call.func, names)
            rules = [_rule(ctx, stmt, method, a.value) for a in call.args] if method else []
            found += [r for r in rules if r is not None]
    for rule in ctx.graph.functions.values():
        for decorator in rule.node.decorators:
            node = decorator.decorator
            method = _rule_method(node.func if type(node) is cst.Call else node, names)
            if method:
                header = ctx.graph.stmts[rule.header]
                found.append(Held(f"the `{method}` rule `{rule.name}`", header, fn=rule))
    return found


def _rule_method(func: cst.BaseExpression, names: set[str]) -> str:
    """`defvjp` in `f.defvjp` where `f` is one of `names`, else ""."""
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return ""
    if func.value.value in names and func.attr.value in jax_api.CUSTOM_RULE_METHODS:
        return func.attr.value
    return ""


def _rule(ctx: ModuleContext, stmt: Stmt, method: str, expr: cst.BaseExpression) -> Held | None:
    """A rule handed to `f.defvjp(...)`: a function the statement's scope sees, a lambda
    at module level, or code autoopt cannot see (`None`: no rule, `defjvps`'s zero)."""
    what = f"the `{method}` rule `{ctx.code(expr)}`"
    if type(expr) is cst.Name and expr.value == "None":
        return None
    if type(expr) is cst.Name:
        rule = ctx.graph.resolve_function(expr.value, stmt.scope)
        if rule is not None:
            return Held(what, stmt, fn=rule)
    if type(expr) is cst.Lambda and stmt.scope == MODULE:
        return Held(f"the `{method}` rule {_lambda_text(ctx, expr)}", stmt, lam=expr)
    return Held(what, stmt, unseen=True)
