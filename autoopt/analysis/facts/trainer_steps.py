"""Where a class's donating step may still run on an instance (a trainer class).

AO201 donates `self.x` of class `C` at a jitted call in a method (the *step*). A reference
to the old `self.x` read by code outside `C`, or a copy of the instance, harms only when
a later call runs the step on the same instance. `confinement` proves that no such call
can follow, or names the premise that fails:

- the *step methods* are the methods passing `self.x` to a jitted callable, and every
  method naming one of them or a step jit (`self.train_step`), to a fixed point; inside
  `C` they are only called (`self.train_epoch(...)`), never taken as a value;
- every instance outside `C` is made as `t = C(...)` (a *holder*: each binding of `t` in
  its scope is such a call; no parameter, `global`, `nonlocal`, nor a name another
  function reads) or used at once (`C(...).a`);
- outside `C` (and inside it, on anything but `self`), a step method or jit is named only
  as a direct call `t.m(...)` of a holder in its own scope (not in a lambda or a
  comprehension, which may run later or bind `t` to another object), or of `C(...)`: an
  instance that leaves its holder never runs the step again, so what reaches it later
  (`model.state.params` in another function) is harmless;
- a holder is used bare (returned, stored, handed to `copy.copy`) or read or written at
  `.x` only where no step call on it can follow: not in a statement that calls the step
  on it, and not before or in a loop with one (source order, loops by their statements).

A method is *before the steps* (`before`) when no step can have run on its instance at
any call of it: it runs while the instance is built (`facts/construction.py`, no such
method being a step method), or every mention of it is a direct call `self.m(...)` in
the body of such a method, or of a step method that every holder calls first (outside
a loop, no step call on it before) and no method of the class names, before that
method's first statement naming a step or calling a jitted function, and in no loop
with one.

A method is *after the steps* (`after`) when no step call on its instance can follow any
call of it: it is no step method nor a dunder, `C`'s methods never name it, and every
holder calls it where a bare use would be allowed. What it reads from or stores in
`self.x` is never donated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables, rebound_attribute_jits
from autoopt.analysis.core.names import dotted
from autoopt.analysis.facts.class_family import family, root_class
from autoopt.analysis.facts.construction import constructing
from autoopt.analysis.facts.self_attrs import is_store, roots, self_method, uses, walk_parents

#: Expressions with a scope of their own.
_NESTED = (cst.Lambda, cst.GeneratorExp, cst.ListComp, cst.SetComp, cst.DictComp)
#: A holder: the scope and the name bound to `C(...)` there.
Holder = tuple[str, str]


@dataclass(frozen=True)
class Confinement:
    """Why a step may run on an instance after outside code reached `self.x` (None: it
    cannot), and the methods that run only once no step can follow."""

    reason: str | None
    after: frozenset[str]
    before: frozenset[str] = frozenset()


def confinement(ctx: ModuleContext, cls: str, attr: str) -> Confinement:
    """Whether outside reads of `C(...).attr` and copies of instances are harmless (`C`
    and the subclasses of its family: `analysis/facts/class_family.py`)."""
    return ctx.per_module(_confinement, root_class(ctx, cls), attr)


def _confinement(ctx: ModuleContext, cls: str, attr: str) -> Confinement:
    methods = _methods(ctx, cls)
    steps = _step_names(ctx, cls, attr, methods)
    reason = None if steps else f"no jitted call of `{cls}` rebinds `self.{attr}`"
    reason = reason or _inside_premise(ctx, methods, steps)
    holders: dict[Holder, list[Stmt]] = {}  # holder -> statements calling a step on it
    if reason is None:
        reason = _holders_premise(ctx, cls, holders)
    if reason is None:
        reason = _calls_premise(ctx, cls, steps, holders)
    if reason is None:
        reason = _uses_premise(ctx, cls, attr, steps, holders)
    after = frozenset() if reason else _after(ctx, cls, methods, steps, holders)
    before = frozenset() if reason else _before(ctx, cls, methods, steps, holders)
    return Confinement(reason, after, before)


def compiled_names(ctx: ModuleContext) -> set[str]:
    """The names called to run a jitted function (`step`, `self.train_step`, one bound by
    several methods included)."""
    found = [*jitted_callables(ctx, True), *rebound_attribute_jits(ctx, True)]
    return {j.name for j in found}


def _methods(ctx: ModuleContext, cls: str) -> list[Function]:
    """The methods with `self` of `cls`'s family (an override too)."""
    members = family(ctx, cls)
    return [
        fn
        for fn in ctx.graph.functions.values()
        if fn.scope in members and self_method(ctx, fn.qualname) is not None
    ]


def _step_names(ctx: ModuleContext, cls: str, attr: str, methods: list[Function]) -> frozenset[str]:
    """The step methods and the step jits named as attributes of `self` (a step is a
    jitted call whose output rebinds `self.attr`: only such a call may donate it)."""
    jitted = compiled_names(ctx)
    names: set[str] = set()
    for use in uses(ctx, cls, attr):
        node = use.stmt.node
        if not is_store(use) or type(node) is not cst.Assign or type(node.value) is not cst.Call:
            continue
        func = node.value.func
        if (dotted(func) or "") in jitted:  # `self.x, l = step(self.x, b)`: a donating call
            names.add(use.method.name)
            if type(func) is cst.Attribute:
                names.add(func.attr.value)
    named = [(fn.name, _self_names(ctx, fn)) for fn in methods]
    grown = True
    while grown:
        more = {m for m, refs in named if refs & names} - names
        names |= more
        grown = bool(more)
    return frozenset(names)


def _self_names(ctx: ModuleContext, method: Function) -> set[str]:
    """The attributes of `self` (or `super()`) a method (and its nested functions) reads."""
    me = method.params[0]
    found: set[str] = set()
    for stmt, node, _ in _nodes(ctx, _within(ctx, method.qualname)):
        if type(node) is cst.Attribute and _on_self(node, me) and not _bound_here(stmt, node):
            found.add(node.attr.value)
    return found


def _on_self(node: cst.Attribute, me: str) -> bool:
    """`self.a` or `super().a`: an attribute of the instance, or its class's."""
    base = node.value
    if type(base) is cst.Name:
        return base.value == me
    return type(base) is cst.Call and type(base.func) is cst.Name and base.func.value == "super"


def _inside_premise(
    ctx: ModuleContext, methods: list[Function], steps: frozenset[str]
) -> str | None:
    """Inside the class, a step method or jit is only called, or bound as a jit."""
    for fn in methods:
        me = fn.params[0]
        for stmt, node, parent in _nodes(ctx, _within(ctx, fn.qualname)):
            if type(node) is not cst.Attribute or node.attr.value not in steps:
                continue
            if not _on_self(node, me):
                continue
            if _called(node, parent) or _bound_here(stmt, node):
                continue
            line = ctx.span(stmt.node).line
            return (
                f"`{ctx.code(node)}` is used as a value at line {line}: code it reaches may "
                "run the step"
            )
    return None


def _holders_premise(ctx: ModuleContext, cls: str, holders: dict[Holder, list[Stmt]]) -> str | None:
    """Every instance is bound to a holder or used at once; fills `holders`."""
    for stmt, node, parent in _nodes(ctx, _outside(ctx, cls)):
        if type(node) is not cst.Call or not _made(ctx, node, cls) or type(parent) is cst.Attribute:
            continue
        name = _bound_name(stmt, node)
        if name is None:
            line = ctx.span(stmt.node).line
            return (
                f"`{cls}` is used other than through its attributes at line {line}: code it "
                "reaches may copy it and run the step on the copy"
            )
        holders.setdefault((stmt.scope, name), [])
    for scope, name in holders:
        reason = _holder_reason(ctx, cls, scope, name)
        if reason is not None:
            return reason
    return None


def _holder_reason(ctx: ModuleContext, cls: str, scope: str, name: str) -> str | None:
    """Why `name` in `scope` may hold something other than this scope's own instance."""
    for stmt in ctx.graph.scope_stmts(scope):
        if name in stmt.defs and not _bound_call(ctx, stmt, name, cls):
            line = ctx.span(stmt.node).line
            return f"`{name}` holds an instance of `{cls}` and is bound otherwise at line {line}"
    fn = ctx.graph.functions.get(scope)
    if fn is not None and name in set(fn.params) | fn.globals | fn.nonlocals | fn.captured:
        return f"`{name}`, which holds an instance of `{cls}`, is shared with other scopes"
    if fn is not None:
        return None
    for other in ctx.graph.functions.values():
        stmts = ctx.graph.scope_stmts(other.qualname)
        local = {n for s in stmts for n in s.defs} | set(other.params)
        if name in {n for s in stmts for n in s.uses} - local or name in other.globals:
            return f"the function `{other.name}` reads `{name}`, which holds an instance of `{cls}`"
    return None


def _calls_premise(
    ctx: ModuleContext, cls: str, steps: frozenset[str], holders: dict[Holder, list[Stmt]]
) -> str | None:
    """A step is named only as a call on a holder or on `C(...)` (in `C`'s methods also
    on `self`); records each holder's step statements."""
    for stmt, node, parent in _nodes(ctx, ctx.graph.stmts):
        if type(node) is not cst.Attribute or node.attr.value not in steps:
            continue
        base = node.value
        if type(base) is cst.Name and base.value == _self_name(ctx, cls, stmt):
            continue  # the same instance (`_inside_premise`)
        held = type(base) is cst.Name and (stmt.scope, base.value) in holders
        if _called(node, parent) and held and id(node) not in _nested(stmt):
            holders[(stmt.scope, base.value)].append(stmt)  # type: ignore[attr-defined]
        elif not (_called(node, parent) and _made(ctx, base, cls)):
            line = ctx.span(stmt.node).line
            return (
                f"`{ctx.code(node)}` at line {line} may run the step of `{cls}` on an instance "
                "autoopt does not follow"
            )
    return None


def _uses_premise(
    ctx: ModuleContext,
    cls: str,
    attr: str,
    steps: frozenset[str],
    holders: dict[Holder, list[Stmt]],
) -> str | None:
    """A holder is used bare or at `.attr` only where no step call on it can follow."""
    for stmt, node, parent in _nodes(ctx, _outside(ctx, cls)):
        if type(node) is not cst.Name or (stmt.scope, node.value) not in holders:
            continue
        later = _step_after(stmt, holders[(stmt.scope, node.value)])
        if later is None or _binds(stmt, node):
            continue
        based = parent if type(parent) is cst.Attribute and parent.value is node else None
        name = based.attr.value if based is not None else ""
        if based is not None and name != attr and (name not in steps or _called_in(stmt, based)):
            continue
        line, step = ctx.span(stmt.node).line, ctx.span(later.node).line
        if based is not None:
            return (
                f"`{ctx.code(based)}` at line {line} reaches `.{name}` outside `{cls}`, and a "
                f"step may run on that instance after it (line {step}), donating what it holds"
            )
        return (
            f"`{node.value}` is used other than through its attributes at line {line}, and a "
            f"step may run on it after (line {step}): code it reaches may copy it, sharing "
            f"`.{attr}`"
        )
    return None


def _after(
    ctx: ModuleContext,
    cls: str,
    methods: list[Function],
    steps: frozenset[str],
    holders: dict[Holder, list[Stmt]],
) -> frozenset[str]:
    """The qualnames of the methods that run only once no step can follow."""
    named = set().union(*(_self_names(ctx, fn) for fn in methods))
    candidates = {fn.name for fn in methods} - steps - named
    candidates = {m for m in candidates if not m.startswith("__")}
    for stmt, node, _ in _nodes(ctx, _outside(ctx, cls)):
        if type(node) is not cst.Attribute or node.attr.value not in candidates:
            continue
        base = node.value
        held = type(base) is cst.Name and holders.get((stmt.scope, base.value))
        if held and _step_after(stmt, held) is not None:
            candidates.discard(node.attr.value)
    return frozenset(fn.qualname for fn in methods if fn.name in candidates)


def _before(
    ctx: ModuleContext,
    cls: str,
    methods: list[Function],
    steps: frozenset[str],
    holders: dict[Holder, list[Stmt]],
) -> frozenset[str]:
    """The qualnames of the methods that run only before any step on their instance:
    those that run while it is built (`facts/construction.py`), none a step method, and
    those every mention of which is a direct call `self.m(...)` in the body of such a
    method, or of a step method called first on its instance, before its first step
    statement and in no loop with one (to a fixed point)."""
    building = constructing(ctx, cls)
    if any(fn.name in steps for fn in methods if fn.qualname in building):
        building = frozenset()
    named = set().union(*(_self_names(ctx, fn) for fn in methods))
    entries = {
        fn.qualname
        for fn in methods
        if fn.name in steps and fn.name not in named and _first_only(ctx, cls, fn.name, holders)
    }
    found = set(building)
    grown = True
    while grown:
        more = {
            fn.qualname
            for fn in methods
            if fn.qualname not in found
            and fn.name not in steps
            and not fn.name.startswith("__")
            and not fn.node.decorators
            and _called_before(ctx, fn.name, methods, found, entries, steps)
        }
        found |= more
        grown = bool(more)
    return frozenset(found)


def _first_only(ctx: ModuleContext, cls: str, name: str, holders: dict[Holder, list[Stmt]]) -> bool:
    """Outside `cls`, the method `name` is only called directly on `C(...)` or on a
    holder, in no loop and where no other step call on that holder comes before it."""
    mentioned = False
    for stmt, node, parent in _nodes(ctx, _outside(ctx, cls)):
        if type(node) is not cst.Attribute or node.attr.value != name:
            continue
        base = node.value
        steps = holders.get((stmt.scope, base.value)) if type(base) is cst.Name else None
        if not _called(node, parent) or stmt.loops or id(node) in _nested(stmt):
            return False
        if steps is None and not _made(ctx, base, cls):
            return False
        if any(
            t is not stmt and (t.id < stmt.id or set(t.loops) & set(stmt.loops))
            for t in steps or []
        ):
            return False
        mentioned = True
    return mentioned


def _called_before(
    ctx: ModuleContext,
    name: str,
    methods: list[Function],
    found: set[str],
    entries: set[str],
    steps: frozenset[str],
) -> bool:
    """Every mention of `name` is a direct call `self.name(...)` in the body of a method
    of `found`, or of one of `entries` before every statement there naming a step."""
    by_name = {fn.qualname: fn for fn in methods if fn.qualname in found | entries}
    mentioned = False
    for stmt, node, parent in _nodes(ctx, ctx.graph.stmts):
        if type(node) is not cst.Attribute or node.attr.value != name:
            continue
        fn = by_name.get(stmt.scope)
        base = node.value
        on_self = fn is not None and type(base) is cst.Name and base.value == fn.params[0]
        if not on_self or not _called(node, parent) or id(node) in _nested(stmt):
            return False
        if fn is not None and fn.qualname not in found and _step_from(ctx, fn, stmt, steps):
            return False
        mentioned = True
    return mentioned


def _step_from(ctx: ModuleContext, fn: Function, stmt: Stmt, steps: frozenset[str]) -> bool:
    """A statement of `fn` naming a step on `self`, or calling a jitted function, may run
    before or at `stmt`."""
    me, jitted = fn.params[0], compiled_names(ctx)
    for other, node, _ in _nodes(ctx, _within(ctx, fn.qualname)):
        named = type(node) is cst.Attribute and node.attr.value in steps and _on_self(node, me)
        called = type(node) is cst.Call and (dotted(node.func) or "") in jitted
        if (named or called) and (other.id <= stmt.id or set(other.loops) & set(stmt.loops)):
            return True
    return False


def _self_name(ctx: ModuleContext, cls: str, stmt: Stmt) -> str | None:
    """The name of `self` where `stmt` is in a method of `cls` (or a function nested in
    one)."""
    for fn in _methods(ctx, cls):
        if stmt.scope == fn.qualname or stmt.scope.startswith(fn.qualname + "."):
            return fn.params[0]
    return None


def _step_after(stmt: Stmt, steps: list[Stmt]) -> Stmt | None:
    """A statement calling the step that may run at or after `stmt`."""
    for step in steps:
        if step is stmt or step.id > stmt.id or set(step.loops) & set(stmt.loops):
            return step
    return None


def _nodes(
    ctx: ModuleContext, stmts: list[Stmt]
) -> Iterator[tuple[Stmt, cst.CSTNode, cst.CSTNode | None]]:
    for stmt in stmts:
        for root in roots(stmt):
            for node, parent in walk_parents(root, None):
                yield stmt, node, parent


def _within(ctx: ModuleContext, qualname: str) -> list[Stmt]:
    return [s for s in ctx.graph.stmts if s.scope == qualname or s.scope.startswith(qualname + ".")]


def _outside(ctx: ModuleContext, cls: str) -> list[Stmt]:
    """The statements outside the bodies of `cls`'s family."""
    members = family(ctx, cls)
    return [s for s in ctx.graph.stmts if s.scope.split(".")[0] not in members]


def _called(node: cst.CSTNode, parent: cst.CSTNode | None) -> bool:
    return type(parent) is cst.Call and parent.func is node


def _made(ctx: ModuleContext, node: cst.CSTNode, cls: str) -> bool:
    """`C(...)`, `C` of `cls`'s family."""
    if type(node) is not cst.Call or type(node.func) is not cst.Name:
        return False
    return node.func.value in family(ctx, cls)


def _bound_name(stmt: Stmt, call: cst.Call) -> str | None:
    """`t` when the statement is `t = call`."""
    node = stmt.node
    if type(node) is not cst.Assign or node.value is not call or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    return target.value if type(target) is cst.Name else None


def _bound_call(ctx: ModuleContext, stmt: Stmt, name: str, cls: str) -> bool:
    """The statement is `name = C(...)`."""
    node = stmt.node
    if type(node) is not cst.Assign or type(node.value) is not cst.Call:
        return False
    return _made(ctx, node.value, cls) and _bound_name(stmt, node.value) == name


def _binds(stmt: Stmt, name: cst.Name) -> bool:
    node = stmt.node
    return type(node) is cst.Assign and any(t.target is name for t in node.targets)


def _bound_here(stmt: Stmt, node: cst.Attribute) -> bool:
    """`self.step = ...`: the attribute is the statement's single target."""
    target = stmt.node
    return type(target) is cst.Assign and any(t.target is node for t in target.targets)


def _nested(stmt: Stmt) -> set[int]:
    """The ids of the nodes of a statement in a scope of its own, which may run later
    or bind the holder's name to something else: a lambda or a comprehension."""
    found: set[int] = set()
    for root in roots(stmt):
        for node, _ in walk_parents(root, None):
            if type(node) in _NESTED:
                found |= {id(n) for n, _ in walk_parents(node, None)}
    return found


def _called_in(stmt: Stmt, func: cst.CSTNode) -> bool:
    """`func` is called in the statement (`func(...)`)."""
    return any(call.func is func for call in stmt.calls)
