"""Donation of an attribute of `self`: `self.state, loss = step(self.state, batch)`.

A jitted call in a method of class `C` may donate `self.x` when the statement rebinds
`self.x` to the call's output and nothing else may hold the old value. `attribute_verdict`
proves, over the whole module (each premise that fails is named):

- the call is in a method of `C` whose first parameter is `self`, the argument is
  `self.x` and a target of the statement is `self.x`; no other argument reads it;
- `C` derives from nothing autoopt cannot read, is not used as a value (subclassed,
  handed on) nor importable by other code (`jitted.escapes`);
- in every method of `C` (and the functions nested there), `self` is read only as
  `self.attr`: it is handed to no code that may keep `self.x`'s value;
- every read of `self.x` in those methods keeps no reference: an argument of a jitted
  call (compiled code keeps nothing and returns new buffers) or an `is` comparison.
  A read stored in another name or attribute that is read again is a proven alias (no
  fix); any other read (returned, handed to other code, closed over) may keep it;
- no code outside `C`'s methods reads or writes an attribute named `x`, nor reaches
  attributes by name (`getattr`, `setattr`, `vars`, `__dict__`);
- every value stored in `self.x` (other than a jitted call's output) holds no buffer
  another name may read later, no caller's array, nothing code autoopt cannot see may
  keep (`analysis/facts/aliases.py`), and no buffer in two leaves.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import escapes, jitted_callables
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.walk import children
from autoopt.analysis.facts.aliases import (
    RETAINED,
    Sharing,
    _first_repeat,
    _Leaves,
    is_pseudo,
)
from autoopt.model import Applicability

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
#: A verdict: the fix a donation allows and the premise that failed, as text.
Verdict = tuple[Applicability, str]
_REFLECTION = frozenset({"getattr", "setattr", "delattr", "vars", "__dict__"})


@dataclass(frozen=True)
class _Use:
    """An occurrence of `self.x` (or of `self` alone) in a method, with its parent."""

    stmt: Stmt
    node: cst.CSTNode
    parent: cst.CSTNode | None
    method: Function


def attribute_verdict(ctx: ModuleContext, site: CallSite, expr: cst.Attribute) -> Verdict | None:
    """Whether the argument `self.x` may be donated at this call (None: the call's output
    does not replace it)."""
    method = _method(ctx, site.stmt.scope)
    node = site.stmt.node
    if method is None or type(expr.value) is not cst.Name:
        return None
    me, attr = method.params[0], expr.attr.value
    if expr.value.value != me or type(node) is not cst.Assign or node.value is not site.call:
        return None
    if not any(_is_self_attr(t, me, attr) for t in _targets(node)):
        return None
    if sum(_is_self_attr(n, me, attr) for n in _attrs(site.call)) > 1:
        return _NONE, f"`{me}.{attr}` is passed twice in one call at line {ctx.span(node).line}"
    return ctx.per_module(_class_verdict, method.scope, attr)


def _class_verdict(ctx: ModuleContext, cls: str, attr: str) -> Verdict:
    """The premises of `cls` about its attribute `attr`, the first one that fails."""
    for check in (_class_premise, _outside_premise, _uses_premise, _stored_premise):
        verdict = check(ctx, cls, attr)
        if verdict is not None:
            return verdict
    return _SAFE, ""


def _class_premise(ctx: ModuleContext, cls: str, attr: str) -> Verdict | None:
    node = _class_node(ctx, cls)
    if node is None:
        return _UNSAFE, f"`{cls}` is not a class of the module's top level"
    bases = [ctx.code(b.value) for b in node.bases if ctx.code(b.value) != "object"]
    if bases or node.keywords:
        what = bases[0] if bases else ctx.code(node.keywords[0])
        return _UNSAFE, f"`{cls}` derives from `{what}`, whose code may keep `self.{attr}`"
    escape = escapes(ctx, cls)
    if escape:
        return _UNSAFE, f"{escape}: code autoopt cannot see may keep `{cls}().{attr}`"
    return None


def _outside_premise(ctx: ModuleContext, cls: str, attr: str) -> Verdict | None:
    """No attribute named `attr` outside `cls`'s methods, no access by name."""
    inside = {id(u.node) for u in _uses(ctx, cls, attr)}
    for stmt in ctx.graph.stmts:
        for root in _roots(stmt):
            for node, _ in _walk(root, None):
                named = type(node) is cst.Attribute and node.attr.value == attr
                if named and id(node) not in inside:
                    where = f"`{ctx.code(node)}` at line {ctx.span(stmt.node).line}"
                    return _UNSAFE, f"{where} reaches an attribute `{attr}` outside `{cls}`"
                if type(node) is cst.Name and node.value in _REFLECTION:
                    line = ctx.span(stmt.node).line
                    return _UNSAFE, f"`{node.value}` at line {line} may reach `self.{attr}`"
    return None


def _uses_premise(ctx: ModuleContext, cls: str, attr: str) -> Verdict | None:
    """`self` only as `self.a`; each read of `self.attr` keeps no reference."""
    jitted = {j.name for j in jitted_callables(ctx, frameworks=True)}
    for use in _uses(ctx, cls, attr):
        line = ctx.span(use.stmt.node).line
        if type(use.node) is cst.Name:
            return _UNSAFE, (
                f"`{use.node.value}` is used other than through its attributes at line "
                f"{line}: code it reaches may keep `{use.node.value}.{attr}`"
            )
        if _is_store(use):
            continue
        verdict = _read_verdict(ctx, use, attr, jitted)
        if verdict is not None:
            return verdict
    return None


def _read_verdict(ctx: ModuleContext, use: _Use, attr: str, jitted: set[str]) -> Verdict | None:
    parent, me = use.parent, use.method.params[0]
    if type(parent) is cst.Arg and _jitted_call_arg(use, parent, jitted):
        return None
    if type(parent) is cst.ComparisonTarget and type(parent.operator) in (cst.Is, cst.IsNot):
        return None
    if type(parent) is cst.Comparison and all(
        type(t.operator) in (cst.Is, cst.IsNot) for t in parent.comparisons
    ):
        return None
    line = ctx.span(use.stmt.node).line
    node = use.stmt.node
    if type(node) is cst.Assign and node.value is use.node:
        alias = _read_alias(ctx, use, node)
        if alias is not None:
            return _NONE, f"{alias} holds the old buffers of `{me}.{attr}` (line {line})"
    return _UNSAFE, (
        f"`{me}.{attr}` is read at line {line} (`{ctx.code(node)}`), where a reference to "
        "its buffers may be kept"
    )


def _jitted_call_arg(use: _Use, arg: cst.Arg, jitted: set[str]) -> bool:
    """`self.x` is an argument of a call of a jitted callable in its statement."""
    for call in use.stmt.calls:
        if any(a is arg for a in call.args):
            return (dotted(call.func) or "") in jitted
    return False


def _read_alias(ctx: ModuleContext, use: _Use, node: cst.Assign) -> str | None:
    """`other = self.x` or `self.other = self.x`, when `other` is read anywhere again."""
    me = use.method.params[0]
    for target in (t.target for t in node.targets):
        if type(target) is cst.Name:
            readers = [s for s in ctx.graph.references(target.value) if s.scope == use.stmt.scope]
            if readers:
                return f"`{target.value}`, read at line {ctx.span(readers[0].node).line},"
        elif type(target) is cst.Attribute and type(target.value) is cst.Name:
            if target.value.value != me:
                continue
            other = target.attr.value
            read = [u for u in _uses(ctx, use.method.scope, other) if not _is_store(u)]
            if read and type(read[0].node) is cst.Attribute:
                return f"`{me}.{other}`, read at line {ctx.span(read[0].stmt.node).line},"
    return None


def _stored_premise(ctx: ModuleContext, cls: str, attr: str) -> Verdict | None:
    """Each value stored in `self.attr` is new buffers nothing else reads later."""
    jitted = {j.name for j in jitted_callables(ctx, frameworks=True)}
    for use in _uses(ctx, cls, attr):
        node = use.stmt.node
        if not _is_store(use) or type(node) is not cst.Assign:
            if _is_store(use):
                line = ctx.span(node).line
                return _UNSAFE, f"`self.{attr}` is written at line {line} other than by `=`"
            continue
        value = node.value
        if type(value) is cst.Call and (dotted(value.func) or "") in jitted:
            continue  # a compiled call's outputs: new buffers
        if len(node.targets) != 1 or type(node.targets[0].target) is not cst.Attribute:
            line = ctx.span(node).line
            return _UNSAFE, f"the value stored in `self.{attr}` at line {line} is not followed"
        verdict = _value_verdict(ctx, use, attr, value)
        if verdict is not None:
            return verdict
    return None


def _value_verdict(
    ctx: ModuleContext, use: _Use, attr: str, value: cst.BaseExpression
) -> Verdict | None:
    """The value stored at `use` holds no buffer another name, a caller or unseen code
    may read later, and none twice."""
    stmt, method = use.stmt, use.method
    line = ctx.span(stmt.node).line
    if type(value) is cst.Name and value.value == "None":
        return None
    sharing = ctx.per_module(_sharing_without, stmt.scope, stmt.id)
    sharing.at = stmt
    shares = sharing.shares(value)
    strong = sharing.component(shares.strong, weak=False)
    names = sharing.component(shares.names(), weak=True)
    stored = f"the value stored in `self.{attr}` at line {line}"
    kept = sharing.retained_by(names)
    if kept is not None:
        return _UNSAFE, f"{stored} {kept}"
    for name in sorted(names):
        if name == method.params[0]:
            return _UNSAFE, f"{stored} may be held by another attribute of `{name}` too"
        if name in method.params or is_pseudo(name) or name == RETAINED:
            return _UNSAFE, f"{stored} may hold `{name}`, which the caller or other code may read"
        readers = ctx.graph.read_after(stmt, name)
        if readers:
            at = ctx.span(readers[0].node).line
            fix = _NONE if name in strong else _UNSAFE
            return fix, f"`{name}` may hold the buffers of {stored} and is read at line {at}"
        if name in method.captured:
            return _UNSAFE, f"a nested function reads `{name}`, which may hold {stored}"
    leaves = _Leaves(ctx, stmt).of(value, 0)
    if leaves is None:
        return _UNSAFE, f"cannot prove the leaves of {stored} are distinct buffers"
    twice = _first_repeat(leaves, "")
    if twice is not None:
        return _NONE, f"`{twice}` fills two leaves of {stored}: one buffer would be donated twice"
    return None


def _sharing_without(ctx: ModuleContext, scope: str, stmt_id: int) -> Sharing:
    """The may-share relation of `scope` without the store `stmt_id` (which links the
    stored value to `self`)."""
    return Sharing(ctx, scope, skip=ctx.graph.stmts[stmt_id])


# -- syntax ------------------------------------------------------------------------


def _method(ctx: ModuleContext, scope: str) -> Function | None:
    """The method of a class whose body holds `scope` (the method itself), with `self`."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or not fn.is_method or not fn.params:
        return None
    names = {dotted(d.decorator) for d in fn.node.decorators}
    return None if names & {"staticmethod", "classmethod"} else fn


def _class_node(ctx: ModuleContext, cls: str) -> cst.ClassDef | None:
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == cls:
            return stmt.node
    return None


def _uses(ctx: ModuleContext, cls: str, attr: str) -> list[_Use]:
    """Every `self.attr` and every `self` not read as `self.a` in the methods of `cls`."""
    return ctx.per_module(_uses_of, cls, attr)


def _uses_of(ctx: ModuleContext, cls: str, attr: str) -> list[_Use]:
    found: list[_Use] = []
    for fn in ctx.graph.functions.values():
        method = _method(ctx, fn.qualname)
        if fn.scope != cls or method is None:
            continue
        me = method.params[0]
        for stmt in ctx.graph.stmts:
            if stmt.scope != fn.qualname and not stmt.scope.startswith(fn.qualname + "."):
                continue
            for root in _roots(stmt):
                for node, parent in _walk(root, None):
                    if (
                        type(node) is cst.Name
                        and node.value == me
                        and type(parent) is not cst.Attribute
                    ) or _is_self_attr(node, me, attr):
                        found.append(_Use(stmt, node, parent, method))
    return found


def _roots(stmt: Stmt) -> list[cst.CSTNode]:
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


def _walk(
    node: cst.CSTNode, parent: cst.CSTNode | None
) -> Iterator[tuple[cst.CSTNode, cst.CSTNode | None]]:
    yield node, parent
    for child in children(node):
        yield from _walk(child, node)


def _attrs(node: cst.CSTNode) -> list[cst.CSTNode]:
    return [n for n, _ in _walk(node, None) if type(n) is cst.Attribute]


def _is_self_attr(node: cst.CSTNode, me: str, attr: str) -> bool:
    return (
        type(node) is cst.Attribute
        and type(node.value) is cst.Name
        and node.value.value == me
        and node.attr.value == attr
    )


def _targets(node: cst.Assign) -> Iterator[cst.BaseExpression]:
    """The assignment's targets, tuple and list elements included."""
    todo: list[cst.BaseExpression] = [t.target for t in node.targets]
    while todo:
        target = todo.pop()
        if type(target) is cst.Tuple or type(target) is cst.List:
            todo += [e.value for e in target.elements]
        else:
            yield target


def _is_store(use: _Use) -> bool:
    """`self.x` is a target the statement binds (`self.x = v`, `self.x, l = f()`)."""
    node = use.stmt.node
    if type(node) is cst.Assign:
        return any(t is use.node for t in _targets(node))
    if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For):
        return getattr(node, "target", None) is use.node
    return False
