"""The attributes of `self` in a class's methods, and whether the class is closed.

A class is *closed* for its attribute `x` (`closed_class`: None, else the reason) when
code autoopt does not read cannot reach `self.x`. The premises are asked of the class's
family (`analysis/facts/class_family.py`): its root and the subclasses the module
derives from it, whose methods an instance may run:

- the root derives from nothing (or `object`), has no keywords (a metaclass) and no
  decorators (`@dataclass` writes methods); no class derives from a member but as a
  member;
- no member is used as a value (handed on) nor importable by other code
  (`analysis/core/jitted.py`, `escapes`);
- no code outside its methods names an attribute `x`, and nothing reaches attributes by
  name (`getattr`, `setattr`, `vars`, `__dict__`, `object.__setattr__`);
- in each method (and the functions nested there), `self` is read only as `self.a`;
- each instance, `C(...)`, is read only as `C(...).a` or through a name bound to it,
  `t.a`, or returned (`return t`, `return t, n`) by a function whose calls are all in
  sight (`known_callers`), each the whole value of `u = f(...)` (`u, m = f(...)`),
  where `u` is read so in turn; or put in a list display (`L = [(name, t), ...]`) bound
  to a name its scope binds and shares nowhere else, read only as what a `for` or a
  comprehension iterates, each item unpacked into names (`for name, u in L`), `u` read
  so in turn: no code can copy it (`copy.copy`) into another object sharing `x`.

`uses` lists each `self.x` (and each bare `self`) in the methods, with its parent node.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs, is_literal
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.jitted import escapes
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.walk import children
from autoopt.analysis.facts.class_family import family, open_family, root_class
from autoopt.analysis.facts.known_callers import known_call_sites

_REFLECTION = frozenset(
    {"getattr", "setattr", "delattr", "vars", "__dict__", "__getattribute__", "__setattr__",
     "__delattr__"}
)  # fmt: skip


@dataclass(frozen=True)
class Use:
    """An occurrence of `self.x` (or of `self` alone) in a method, with its parent."""

    stmt: Stmt
    node: cst.CSTNode
    parent: cst.CSTNode | None
    method: Function


def closed_class(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """Why code autoopt does not read may reach `self.attr` of `cls` (None: it cannot)."""
    return ctx.per_module(_closed, root_class(ctx, cls), attr)


def sealed_class(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """`closed_class`'s premises but those on what code outside `cls` does with its
    instances and attributes named `attr` (`analysis/facts/trainer_steps.py` proves
    those harmless another way)."""
    checks = (_class_premise, _reflection_premise, _self_premise)
    root = root_class(ctx, cls)
    return next((r for c in checks if (r := c(ctx, root, attr)) is not None), None)


def _closed(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    checks = (_class_premise, _outside_premise, _self_premise, _instances_premise)
    return next((r for c in checks if (r := c(ctx, cls, attr)) is not None), None)


def _class_premise(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    node = class_node(ctx, cls)
    if node is None:
        return f"`{cls}` is not a class of the module's top level"
    bases = [ctx.code(b.value) for b in node.bases if ctx.code(b.value) != "object"]
    if bases or node.keywords:
        what = bases[0] if bases else ctx.code(node.keywords[0])
        return f"`{cls}` derives from `{what}`, whose code may keep `self.{attr}`"
    if node.decorators:
        what = ctx.code(node.decorators[0].decorator)
        return f"`{cls}` is decorated with `{what}`, whose methods may keep `self.{attr}`"
    reason = open_family(ctx, cls)
    if reason is not None:
        return f"{reason}: its methods may keep `self.{attr}`"
    for member in family(ctx, cls):
        escape = escapes(ctx, member) or _value_use(ctx, member)
        if escape:
            return f"{escape}: code autoopt cannot see may keep `{member}().{attr}`"
    return descriptor_reason(ctx, cls, attr)


def descriptor_reason(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """Where a class of `cls`'s family binds `attr` in its body to what may be a
    descriptor (None: none does)."""
    members = family(ctx, root_class(ctx, cls))
    return next(filter(None, (_descriptor(ctx, m, attr) for m in members)), None)


def _descriptor(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """Where the body of `cls` binds `attr` to what may be a descriptor (a property, a
    method, any value but a literal): `self.attr = v` may then run a setter that keeps
    `v`."""
    node = class_node(ctx, cls)
    kept = f"assigning `self.{attr}` may run a setter that keeps the value"
    for line in node.body.body if node is not None else ():
        where = f"`{cls}.{attr}` (line {ctx.span(line).line})"
        if type(line) is cst.FunctionDef and line.name.value == attr:
            return f"{where} is {'a property' if line.decorators else 'a method'}: {kept}"
        for small in line.body if type(line) is cst.SimpleStatementLine else ():
            value = getattr(small, "value", None)
            targets = [t.target for t in getattr(small, "targets", ())]
            targets += [small.target] if type(small) is cst.AnnAssign else []
            bound = any(type(t) is cst.Name and t.value == attr for t in targets)
            if bound and value is not None and not is_literal(value):
                return f"{where} is `{ctx.code(value)}`, which may be a descriptor: {kept}"
    return None


def _value_use(ctx: ModuleContext, cls: str) -> str | None:
    """Where `cls` is read other than called (a parameter's default, a base class), which
    `escapes` does not see: its instances may then be made where autoopt cannot follow."""
    for stmt in ctx.graph.stmts:
        for root in roots(stmt):
            for node, parent in walk_parents(root, None):
                called = type(parent) is cst.Call and parent.func is node
                if type(node) is cst.Name and node.value == cls and not called:
                    return f"`{cls}` is used as a value at line {ctx.span(stmt.node).line}"
    return None


def _outside_premise(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """No attribute named `attr` outside `cls`'s methods, no access by name."""
    inside = {id(u.node) for u in uses(ctx, cls, attr)}
    for stmt in ctx.graph.stmts:
        for root in roots(stmt):
            for node, _ in walk_parents(root, None):
                named = type(node) is cst.Attribute and node.attr.value == attr
                if named and id(node) not in inside:
                    where = f"`{ctx.code(node)}` at line {ctx.span(stmt.node).line}"
                    return f"{where} reaches an attribute `{attr}` outside `{cls}`"
    return _reflection_premise(ctx, cls, attr)


def _reflection_premise(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """Nothing reaches attributes by name (`getattr`, `vars`, `__dict__`)."""
    for stmt in ctx.graph.stmts:
        for root in roots(stmt):
            for node, _ in walk_parents(root, None):
                if type(node) is cst.Name and node.value in _REFLECTION:
                    line = ctx.span(stmt.node).line
                    return f"`{node.value}` at line {line} may reach `self.{attr}`"
    return None


def _instances_premise(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """Each instance, `C(...)`, is used only through its attributes, directly or by a
    name it is bound to, or returned to callers that bind it so (`_returned_to`): code
    it is handed to may copy it (`copy.copy`), sharing `.{attr}`."""
    held: dict[str, set[str]] = {}  # scope -> names bound to an instance
    members = family(ctx, cls)
    for stmt in ctx.graph.stmts:
        for root in roots(stmt):
            for node, parent in walk_parents(root, None):
                if type(node) is not cst.Call or type(node.func) is not cst.Name:
                    continue
                if node.func.value not in members or type(parent) is cst.Attribute:
                    continue
                name = _bound_name(stmt, node)
                if name is None:
                    return _handed(ctx, cls, stmt, attr)
                held.setdefault(stmt.scope, set()).add(name)
    grown = True
    while grown:
        grown = False
        for stmt, node in _name_reads(ctx, held):
            bindings = _returned_to(ctx, stmt, node)
            bindings = bindings if bindings is not None else _listed_in(ctx, stmt, node)
            if bindings is None:
                return _handed(ctx, node.value, stmt, attr)
            for scope, name in bindings:
                grown = grown or name not in held.setdefault(scope, set())
                held[scope].add(name)
    return None


def _name_reads(ctx: ModuleContext, held: dict[str, set[str]]) -> Iterator[tuple[Stmt, cst.Name]]:
    """Each read of a name `held` binds in its scope (or a scope within) but as `t.a` or
    a binding target: the instance itself handed on."""
    for stmt in ctx.graph.stmts:
        names = {n for scope, ns in held.items() if _within(stmt.scope, scope) for n in ns}
        for root in roots(stmt) if names else ():
            for node, parent in walk_parents(root, None):
                if type(node) is not cst.Name or node.value not in names:
                    continue
                based = type(parent) is cst.Attribute and parent.value is node
                named = type(parent) is cst.Attribute and parent.attr is node
                keyword = type(parent) is cst.Arg and parent.keyword is node
                bound = _binds(stmt, node) or _loop_target(ctx, node)
                if not (based or named or keyword or bound):
                    yield stmt, node


def _returned_to(ctx: ModuleContext, stmt: Stmt, node: cst.Name) -> list[tuple[str, str]] | None:
    """Where `return t` (or `return t, x`) of a function whose callers are all known
    (`known_callers`) binds the instance: each call the whole value of `u = f(...)` (or
    `u, v = f(...)`, a name in `t`'s place); None where it is not so returned."""
    ret = stmt.node
    fn = ctx.graph.functions.get(stmt.scope)
    if type(ret) is not cst.Return or ret.value is None or fn is None:
        return None
    index = None if ret.value is node else _element_index(ret.value, node)
    if index is None and ret.value is not node:
        return None
    sites, reason = known_call_sites(ctx, fn)
    if reason:
        return None
    found = []
    for site in sites:
        name = _receiving_name(site.stmt, site.call, index, ret.value)
        if name is None:
            return None
        found.append((site.stmt.scope, name))
    return found


def _listed_in(ctx: ModuleContext, stmt: Stmt, node: cst.Name) -> list[tuple[str, str]] | None:
    """Where `L = [..., (n, r, t), ...]` (or `L = [..., t, ...]`) puts the instance in a
    list display bound to a name the scope binds nowhere else and shares with no other
    scope, each read of which is what a `for` or a comprehension iterates, unpacking each
    item into names: the name in `t`'s place, in the scope of each such read; None where
    not so listed."""
    path = ctx.ancestors(node)
    index, listed = None, path[-3] if len(path) > 3 else None
    if type(listed) is cst.Tuple and type(path[-2]) is cst.Element:
        index = _element_index(listed, node)
        listed = path[-5] if index is not None and type(path[-4]) is cst.Element else None
    elif type(path[-2]) is not cst.Element:
        listed = None
    held = stmt.node
    if type(listed) is not cst.List or type(held) is not cst.Assign or held.value is not listed:
        return None
    if len(held.targets) != 1 or type(held.targets[0].target) is not cst.Name:
        return None
    name = held.targets[0].target.value
    if _holder_shared(ctx, stmt, name):
        return None
    found = []
    for other, read, parent in _reads_of(ctx, stmt.scope, name):
        if type(parent) is not cst.For and type(parent) is not cst.CompFor:
            return None
        target: cst.BaseExpression = parent.target
        if parent.iter is not read:
            return None
        if index is not None and type(target) in (cst.Tuple, cst.List):
            size = len(path[-3].elements)  # type: ignore[attr-defined]  # the tuple
            elements = target.elements  # type: ignore[attr-defined]
            if len(elements) != size or any(type(e) is not cst.Element for e in elements):
                return None
            target = elements[index].value
        elif index is not None:
            return None
        if type(target) is not cst.Name:
            return None
        found.append((other.scope, target.value))
    return found


def _holder_shared(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name` is bound in `stmt`'s scope other than by `stmt`, or shared with another
    scope (a parameter, `global`, `nonlocal`, a closure, a global another function reads)."""
    scope = stmt.scope
    if any(name in s.defs for s in ctx.graph.scope_stmts(scope) if s is not stmt):
        return True
    fn = ctx.graph.functions.get(scope)
    if fn is not None:
        return name in set(fn.params) | fn.globals | fn.nonlocals | fn.captured
    for other in ctx.graph.functions.values():
        stmts = ctx.graph.scope_stmts(other.qualname)
        local = {n for s in stmts for n in s.defs} | set(other.params)
        if name in {n for s in stmts for n in s.uses} - local or name in other.globals:
            return True
    return False


def _reads_of(
    ctx: ModuleContext, scope: str, name: str
) -> Iterator[tuple[Stmt, cst.Name, cst.CSTNode | None]]:
    """Each read of `name` in the statements of `scope` (their nested code included),
    binding targets left out, with its parent."""
    for stmt in ctx.graph.stmts:
        if not _within(stmt.scope, scope):
            continue
        for root in roots(stmt):
            for node, parent in walk_parents(root, None):
                if type(node) is not cst.Name or node.value != name:
                    continue
                attribute = type(parent) is cst.Attribute and parent.attr is node
                keyword = type(parent) is cst.Arg and parent.keyword is node
                if not (attribute or keyword or _binds(stmt, node)):
                    yield stmt, node, ctx.ancestors(node)[-2]  # a loop's, for its iterable


def _loop_target(ctx: ModuleContext, node: cst.Name) -> bool:
    """`node` is (in) the target of a `for` or a comprehension: bound, not read."""
    path = ctx.ancestors(node)
    for child, parent in zip(reversed(path), reversed(path[:-1]), strict=False):
        if type(parent) in (cst.For, cst.CompFor):
            return parent.target is child  # type: ignore[attr-defined]
        if type(parent) not in (cst.Tuple, cst.List, cst.Element, cst.StarredElement):
            return False
    return False


def _element_index(value: cst.BaseExpression, node: cst.Name) -> int | None:
    """The position of `node` in the tuple `value`, none of whose elements is starred."""
    if type(value) is not cst.Tuple or any(type(e) is not cst.Element for e in value.elements):
        return None
    return next((i for i, e in enumerate(value.elements) if e.value is node), None)


def _receiving_name(
    stmt: Stmt, call: cst.Call, index: int | None, returned: cst.BaseExpression
) -> str | None:
    """The name `stmt`, `u = call` (`index` None) or `u, v = call` (the tuple returned
    unpacked), binds to the element at `index`."""
    node = stmt.node
    if type(node) is not cst.Assign or node.value is not call or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    if index is None:
        return target.value if type(target) is cst.Name else None
    size = len(returned.elements)  # type: ignore[attr-defined]  # a Tuple
    if not isinstance(target, (cst.Tuple, cst.List)) or len(target.elements) != size:
        return None
    if any(type(e) is not cst.Element for e in target.elements):
        return None
    element = target.elements[index].value
    return element.value if type(element) is cst.Name else None


def _handed(ctx: ModuleContext, what: str, stmt: Stmt, attr: str) -> str:
    line = ctx.span(stmt.node).line
    return (
        f"`{what}` is used other than through its attributes at line {line}: code it "
        f"reaches may copy it, sharing `.{attr}`"
    )


def _bound_name(stmt: Stmt, call: cst.Call) -> str | None:
    """`t` when the statement is `t = call`."""
    node = stmt.node
    if type(node) is not cst.Assign or node.value is not call or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    return target.value if type(target) is cst.Name else None


def _binds(stmt: Stmt, name: cst.Name) -> bool:
    """`name` is a target of the assignment `stmt` (`t = ...`, `t, u = ...`)."""
    node = stmt.node
    return type(node) is cst.Assign and any(_target_holds(t.target, name) for t in node.targets)


def _target_holds(target: cst.BaseExpression, name: cst.Name) -> bool:
    if type(target) in (cst.Tuple, cst.List):
        return any(_target_holds(e.value, name) for e in target.elements)  # type: ignore[attr-defined]
    return target is name


def _within(scope: str, outer: str) -> bool:
    return scope == outer or scope.startswith(outer + ".") or outer == MODULE


def _self_premise(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    for use in uses(ctx, cls, attr):
        if type(use.node) is cst.Name:
            line = ctx.span(use.stmt.node).line
            return (
                f"`{use.node.value}` is used other than through its attributes at line "
                f"{line}: code it reaches may keep `{use.node.value}.{attr}`"
            )
    return None


def self_method(ctx: ModuleContext, scope: str) -> Function | None:
    """The method of a class whose body holds `scope` (the method itself), with `self`."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or not fn.is_method or not fn.params:
        return None
    names = {dotted(d.decorator) for d in fn.node.decorators}
    return None if names & {"staticmethod", "classmethod"} else fn


def class_node(ctx: ModuleContext, cls: str) -> cst.ClassDef | None:
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == cls:
            return stmt.node
    return None


def uses(ctx: ModuleContext, cls: str, attr: str) -> list[Use]:
    """Every `self.attr` and every `self` not read as `self.a` in the methods of `cls`'s
    family (`analysis/facts/class_family.py`: an instance may run any of them)."""
    return ctx.per_module(_uses_of, root_class(ctx, cls), attr)


def _uses_of(ctx: ModuleContext, cls: str, attr: str) -> list[Use]:
    found: list[Use] = []
    members = family(ctx, cls)
    for fn in ctx.graph.functions.values():
        method = self_method(ctx, fn.qualname)
        if fn.scope not in members or method is None:
            continue
        me = method.params[0]
        for stmt in ctx.graph.stmts:
            if stmt.scope != fn.qualname and not stmt.scope.startswith(fn.qualname + "."):
                continue
            for root in roots(stmt):
                for node, parent in walk_parents(root, None):
                    if (
                        type(node) is cst.Name
                        and node.value == me
                        and type(parent) is not cst.Attribute
                    ) or is_self_attr(node, me, attr):
                        found.append(Use(stmt, node, parent, method))
    return found


def roots(stmt: Stmt) -> list[cst.CSTNode]:
    """What a statement evaluates or binds (a loop's target and a `with`'s names too)."""
    node = stmt.node
    roots = list(evaluated_exprs(node))
    if type(node) is cst.For:
        roots.append(node.target)
    if type(node) is cst.With:
        roots += [i.asname.name for i in node.items if i.asname is not None]
    if type(node) is cst.FunctionDef:
        roots += [p.default for p in _params(node) if p.default is not None]
    return roots


def _params(node: cst.FunctionDef) -> list[cst.Param]:
    params = node.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def walk_parents(
    node: cst.CSTNode, parent: cst.CSTNode | None
) -> Iterator[tuple[cst.CSTNode, cst.CSTNode | None]]:
    yield node, parent
    for child in children(node):
        yield from walk_parents(child, node)


def is_self_attr(node: cst.CSTNode, me: str, attr: str) -> bool:
    return (
        type(node) is cst.Attribute
        and type(node.value) is cst.Name
        and node.value.value == me
        and node.attr.value == attr
    )


def method_targets(
    ctx: ModuleContext, cls: str
) -> Iterator[tuple[Function, cst.BaseStatement | cst.BaseSmallStatement, cst.BaseExpression]]:
    """(method, statement, target) for each target an assignment binds in the methods of
    class `cls` (their nested functions included): `=`, `+=`, annotated."""
    for fn in ctx.graph.functions.values():
        if fn.scope != cls:
            continue
        for stmt in ctx.graph.stmts:
            if stmt.scope != fn.qualname and not stmt.scope.startswith(fn.qualname + "."):
                continue
            node = stmt.node
            if type(node) is cst.Assign:
                yield from ((fn, node, t.target) for t in node.targets)
            elif type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
                yield fn, node, node.target


def assign_targets(node: cst.Assign) -> Iterator[cst.BaseExpression]:
    """The assignment's targets, tuple and list elements included."""
    todo: list[cst.BaseExpression] = [t.target for t in node.targets]
    while todo:
        target = todo.pop()
        if type(target) is cst.Tuple or type(target) is cst.List:
            todo += [e.value for e in target.elements]
        else:
            yield target


def is_store(use: Use) -> bool:
    """`self.x` is a target the statement binds (`self.x = v`, `self.x, l = f()`)."""
    node = use.stmt.node
    if type(node) is cst.Assign:
        return any(t is use.node for t in assign_targets(node))
    if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For):
        return getattr(node, "target", None) is use.node
    return False
