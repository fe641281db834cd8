"""Donation of an attribute of `self`: `self.state, loss = step(self.state, batch)`.

A jitted call in a method of class `C` may donate `self.x` when the statement rebinds
`self.x` to the call's output and nothing else may hold the old value. `attribute_verdict`
proves, over the whole module (each premise that fails is named):

- the call is in a method of `C` whose first parameter is `self`, the argument is
  `self.x` and a target of the statement is `self.x`; no other argument reads it;
- `C` is closed for `x` (`analysis/facts/self_attrs.py`): code autoopt does not read
  cannot reach `self.x` (no base class, not importable, `self` handed to nothing, no
  attribute `x` outside its methods);
- every read of `self.x` in those methods keeps no reference: an argument of a jitted
  call (compiled code keeps nothing and returns new buffers), an `is` comparison, or
  a value that reaches only a call keeping none of its arguments or the record that
  replaces `self.x` (`analysis/facts/attribute_reads.py`).
  A read stored in another name or attribute that is read again is a proven alias (no
  fix); any other read (returned, handed to other code, closed over) may keep it;
- every value stored in `self.x` (other than a jitted call's output, or a target of
  unpacking a call whose every target gets a new buffer, `overlays.UNPACKS_FRESH`:
  `self.rng, sub = jax.random.split(self.rng)`) holds no buffer another name may read
  later, no caller's array, nothing code autoopt cannot see may keep
  (`analysis/facts/aliases.py`), and no buffer in two leaves. It may hold another
  attribute's buffers only where that attribute is *spent* (`_spent`): every store in
  it is new buffers (`facts/fresh_stores.py`), every read is in a method that runs before any
  step on the instance (`trainer_steps.Confinement.before`) and reaches only the record
  that replaces `self.x`, and nothing outside the class names it: once a step donates
  them, nothing reads them.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import CallSite, Stmt
from autoopt.analysis.core.names import dotted
from autoopt.analysis.facts.aliases import (
    RETAINED,
    Leaves,
    Shares,
    Sharing,
    first_repeat,
    is_pseudo,
)
from autoopt.analysis.facts.attribute_reads import keeps_nothing, replaced_fields
from autoopt.analysis.facts.bufferless import bufferless_names
from autoopt.analysis.facts.class_family import family
from autoopt.analysis.facts.fresh import fresh_result
from autoopt.analysis.facts.fresh_stores import fresh_store
from autoopt.analysis.facts.none_guards import none_guarded, none_reason, quiet_reason
from autoopt.analysis.facts.self_attrs import (
    Use,
    assign_targets,
    closed_class,
    is_self_attr,
    is_store,
    roots,
    sealed_class,
    self_method,
    uses,
    walk_parents,
)
from autoopt.analysis.facts.train_states import record_static
from autoopt.analysis.facts.trainer_steps import compiled_names, confinement
from autoopt.model import Applicability

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
#: Stands for a name `_sources` does not follow (bound other than by `=`).
_UNFOLLOWED = "<unfollowed>"
#: A verdict: the fix a donation allows and the premise that failed, as text.
Verdict = tuple[Applicability, str]


def attribute_verdict(ctx: ModuleContext, site: CallSite, expr: cst.Attribute) -> Verdict | None:
    """Whether the argument `self.x` may be donated at this call (None: the call's output
    does not replace it)."""
    method = self_method(ctx, site.stmt.scope)
    node = site.stmt.node
    if method is None or type(expr.value) is not cst.Name:
        return None
    me, attr = method.params[0], expr.attr.value
    if expr.value.value != me or type(node) is not cst.Assign or node.value is not site.call:
        return None
    if not any(is_self_attr(t, me, attr) for t in assign_targets(node)):
        return None
    if sum(is_self_attr(n, me, attr) for n, _ in walk_parents(site.call, None)) > 1:
        return _NONE, f"`{me}.{attr}` is passed twice in one call at line {ctx.span(node).line}"
    return ctx.per_module(_class_verdict, method.scope, attr)


def _class_verdict(ctx: ModuleContext, cls: str, attr: str) -> Verdict:
    """The premises of `cls` about its attribute `attr`, the first one that fails."""
    confined = confinement(ctx, cls, attr)
    after = confined.after
    verdict = _repeat_premise(ctx, cls, attr, after)
    if verdict is not None:
        return verdict
    reason = sealed_class(ctx, cls, attr)
    if reason is not None:
        return _UNSAFE, reason
    if confined.reason is not None and closed_class(ctx, cls, attr) is not None:
        return _UNSAFE, confined.reason
    for check in (_uses_premise, _stored_premise):
        verdict = check(ctx, cls, attr, after)
        if verdict is not None:
            return verdict
    return _SAFE, ""


def _uses_premise(ctx: ModuleContext, cls: str, attr: str, after: frozenset[str]) -> Verdict | None:
    """Each read of `self.attr` keeps no reference (but in a method run only once no
    step can follow: `after`)."""
    jitted = compiled_names(ctx)
    for use in uses(ctx, cls, attr):
        if use.method.qualname in after:
            continue
        if type(use.node) is cst.Attribute and not is_store(use):
            verdict = _read_verdict(ctx, use, attr, jitted)
            if verdict is not None:
                return verdict
    return None


def _read_verdict(ctx: ModuleContext, use: Use, attr: str, jitted: set[str]) -> Verdict | None:
    parent, me = use.parent, use.method.params[0]
    if type(parent) is cst.Arg and _jitted_call_arg(use, parent, jitted):
        return None
    if type(parent) is cst.ComparisonTarget and type(parent.operator) in (cst.Is, cst.IsNot):
        return None
    if type(parent) is cst.Comparison and all(
        type(t.operator) in (cst.Is, cst.IsNot) for t in parent.comparisons
    ):
        return None
    if keeps_nothing(ctx, use, attr):
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


def _jitted_call_arg(use: Use, arg: cst.Arg, jitted: set[str]) -> bool:
    """`self.x` is an argument of a call of a jitted callable in its statement."""
    for call in use.stmt.calls:
        if any(a is arg for a in call.args):
            return (dotted(call.func) or "") in jitted
    return False


def _read_alias(ctx: ModuleContext, use: Use, node: cst.Assign) -> str | None:
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
            read = [u for u in uses(ctx, use.method.scope, other) if not is_store(u)]
            if read and type(read[0].node) is cst.Attribute:
                return f"`{me}.{other}`, read at line {ctx.span(read[0].stmt.node).line},"
    return None


def _stored_premise(
    ctx: ModuleContext, cls: str, attr: str, after: frozenset[str]
) -> Verdict | None:
    """Each value stored in `self.attr` is new buffers nothing else reads later (but in
    a method run only once no step can follow: `after`)."""
    jitted = compiled_names(ctx)
    for use in uses(ctx, cls, attr):
        node = use.stmt.node
        if use.method.qualname in after:
            continue
        if not is_store(use) or type(node) is not cst.Assign:
            if is_store(use):
                line = ctx.span(node).line
                return _UNSAFE, f"`self.{attr}` is written at line {line} other than by `=`"
            continue
        value = node.value
        if len(node.targets) != 1:  # `self.x = keep = v`: `keep` holds it too
            line = ctx.span(node).line
            return _UNSAFE, f"the value stored in `self.{attr}` at line {line} is bound twice"
        if type(value) is cst.Call and (dotted(value.func) or "") in jitted:
            continue  # a compiled call's outputs: new buffers
        if _unpacked_fresh(ctx, node):
            continue  # `self.rng, sub = jax.random.split(self.rng)`: a new buffer each
        if type(node.targets[0].target) is not cst.Attribute:
            line = ctx.span(node).line
            return _UNSAFE, f"the value stored in `self.{attr}` at line {line} is not followed"
        verdict = _value_verdict(ctx, use, attr, value)
        if verdict is not None:
            return verdict
    return None


def _unpacked_fresh(ctx: ModuleContext, node: cst.Assign) -> bool:
    """`a, b = call(...)` (plain names and attributes, nothing starred) of a call whose
    result, unpacked, gives each target a new buffer (`overlays.UNPACKS_FRESH`)."""
    target, value = node.targets[0].target, node.value
    if type(target) not in (cst.Tuple, cst.List) or type(value) is not cst.Call:
        return False
    plain = all(
        type(e) is cst.Element and type(e.value) in (cst.Name, cst.Attribute)
        for e in target.elements  # type: ignore[attr-defined]
    )
    qual = ctx.qualify(value.func) or ""
    return plain and qual in overlays.UNPACKS_FRESH and not any(a.star for a in value.args)


def _repeat_premise(
    ctx: ModuleContext, cls: str, attr: str, after: frozenset[str]
) -> Verdict | None:
    """No value stored in `self.attr` fills two of its leaves with one buffer (but in a
    method run only once no step can follow: `after`): a step donating it fails
    (`Attempt to donate the same buffer twice`) whatever else holds, so this comes first."""
    jitted = compiled_names(ctx)
    for use in uses(ctx, cls, attr):
        node = use.stmt.node
        if use.method.qualname in after or not is_store(use) or type(node) is not cst.Assign:
            continue
        if len(node.targets) != 1 or type(node.targets[0].target) is not cst.Attribute:
            continue
        value = node.value
        if type(value) is cst.Call and (dotted(value.func) or "") in jitted:
            continue
        twice = _repeated_field(ctx, use.stmt, value)
        if twice is None:
            sharing, parts, own = _stored_parts(ctx, use, attr, value)
            leaves = _leaves(ctx, use.stmt, sharing, parts)
            local = _local_names(ctx, use.stmt.scope) - {use.method.params[0]}
            named = [leaf & local for leaf in leaves or []]  # `self`: not one buffer
            twice = None if leaves is None else first_repeat([*named, *own], "")
        if twice is not None:
            line = ctx.span(node).line
            return _NONE, (
                f"`{twice}` fills two leaves of the value stored in `self.{attr}` at line "
                f"{line}: one buffer would be donated twice"
            )
    return None


def _repeated_field(ctx: ModuleContext, stmt: Stmt, value: cst.BaseExpression) -> str | None:
    """A name given as two fields of the `TrainState` a store makes (`params=p,
    ema_params=p`): one buffer in two leaves, whatever else `p` may share (a name proven
    to hold no buffer aside)."""
    static = record_static(ctx, value) if type(value) is cst.Call else None
    if static is None:
        return None
    bufferless = bufferless_names(ctx, stmt.scope) | {"None", "True", "False"}
    seen: set[str] = set()
    for arg in value.args:  # type: ignore[attr-defined]
        given = arg.value
        if (arg.keyword and arg.keyword.value in static) or type(given) is not cst.Name:
            continue
        if given.value in seen:
            return given.value
        if given.value not in bufferless:
            seen.add(given.value)
    return None


def _stored_parts(
    ctx: ModuleContext, use: Use, attr: str, value: cst.BaseExpression
) -> tuple[Sharing, list[cst.BaseExpression], list[frozenset[str]]]:
    """The may-share relation at the store `use` (without it), the parts of the stored
    value, and the leaves of a record read from `self.attr` (`replaced_fields`)."""
    stmt = use.stmt
    sharing = ctx.per_module(_sharing_without, stmt.scope, stmt.id)
    sharing.at = stmt
    split = replaced_fields(ctx, stmt, use.method.params[0], attr)
    parts, own = split if split is not None else ([value], [])
    return sharing, parts, own


def _value_verdict(
    ctx: ModuleContext, use: Use, attr: str, value: cst.BaseExpression
) -> Verdict | None:
    """The value stored at `use` holds no buffer another name, a caller or unseen code
    may read later, and its leaves are known (`_repeat_premise`: none twice). A record
    replacing `self.attr` with fields read from it (`replaced_fields`) holds those
    buffers alone once the old record is dropped."""
    stmt, method = use.stmt, use.method
    line = ctx.span(stmt.node).line
    if type(value) is cst.Name and value.value == "None":
        return None
    sharing, parts, _ = _stored_parts(ctx, use, attr, value)
    shares = Shares()
    for part in parts:
        shares.add(sharing.shares(part))
    names = sharing.component(shares.names(), weak=True)
    stored = f"the value stored in `self.{attr}` at line {line}"
    me = method.params[0]
    if me in names:  # before what `self`'s other attributes are handed to may keep
        sources = _sources(ctx, stmt, parts)
        unspent = _spent_attributes(ctx, use, attr, sources)
        if unspent is not None:
            others = _other_attributes(ctx, stmt, sources, me, attr)
            return _UNSAFE, (
                f"{stored} may be held by another attribute of `{me}` too ({others}): {unspent}"
            )
        names = names - {me}
    kept = sharing.retained_by(names)
    if kept is not None:
        return _UNSAFE, f"{stored} {kept}"
    for name in sorted(names):
        if name in method.params or is_pseudo(name) or name == RETAINED:
            return _UNSAFE, f"{stored} may hold `{name}`, which the caller or other code may read"
        if name not in _local_names(ctx, stmt.scope):
            return _UNSAFE, f"{stored} may hold `{name}`, which lives outside `{method.name}`"
        readers = ctx.graph.read_after(stmt, name)
        if readers:  # read before or after a donating call: not known which
            at = ctx.span(readers[0].node).line
            return _UNSAFE, f"`{name}` may hold the buffers of {stored} and is read at line {at}"
        if name in method.captured:
            return _UNSAFE, f"a nested function reads `{name}`, which may hold {stored}"
    if _leaves(ctx, stmt, sharing, parts) is None:
        return _UNSAFE, f"cannot prove the leaves of {stored} are distinct buffers"
    return None


def _sources(
    ctx: ModuleContext, stmt: Stmt, parts: list[cst.BaseExpression]
) -> list[cst.BaseExpression]:
    """The expressions whose buffers the stored `parts` may hold (a record's fields, not
    its `apply_fn`), with the values bound to the names they read in the scope of `stmt`
    (`params = self.model.init(...)`), and to the names those read, to a fixed point."""
    found: list[cst.BaseExpression] = []
    for part in parts:
        static = record_static(ctx, part) if type(part) is cst.Call else None
        if static is None:
            found.append(part)
        else:  # `TrainState.create(...)`: its fields
            found += [a.value for a in part.args if not a.keyword or a.keyword.value not in static]  # type: ignore[attr-defined]
    seen: set[int] = set()
    grown = True
    while grown:
        names = {n.value for part in found for n in read_names(part)}
        grown = False
        for other in ctx.graph.scope_stmts(stmt.scope):
            node = other.node
            bound = other is not stmt and other.defs & names and id(node) not in seen
            if bound and type(node) is cst.Assign:
                found.append(node.value)
                seen.add(id(node))
                grown = True
            elif bound:
                return [*found, cst.Name(_UNFOLLOWED)]  # bound otherwise: not followed
    return found


def _spent_attributes(
    ctx: ModuleContext, use: Use, attr: str, sources: list[cst.BaseExpression]
) -> str | None:
    """Why an attribute of `self` the stored value's `sources` read may not be *spent*
    (None: each is): new buffers (`facts/fresh.py`) read only before any step runs on
    the instance, only into a record that replaces `self.attr` (`self.state =
    TrainState.create(params=self.init_params)`), and named nowhere outside the class:
    once a step donates them nothing reads them."""
    me = use.method.params[0]
    if any(type(s) is cst.Name and s.value == _UNFOLLOWED for s in sources):
        return "a name it reads is bound other than by `=`"
    others: set[str] = set()
    called: dict[str, str] = {}  # `self.model` -> `self.model.init(...)`, not proven new
    for value in sources:
        for node, parent in walk_parents(value, None):
            based = type(parent) is cst.Attribute and parent.value is node
            if type(node) is cst.Name and node.value == me and not based:
                return f"it reads `{me}` itself"
            named = type(node) is cst.Attribute and type(node.value) is cst.Name
            if not named or node.value.value != me or node.attr.value == attr:  # type: ignore[attr-defined]
                continue
            call = _method_call(ctx, node)
            if call is not None and fresh_result(ctx, use.stmt, call):
                continue  # `self.model.init(...)`: new buffers, none of `self.model`'s
            if call is not None:
                called.setdefault(node.attr.value, ctx.code(call))  # type: ignore[attr-defined]
            others.add(node.attr.value)  # type: ignore[attr-defined]
    cls = use.method.scope
    before = confinement(ctx, cls, attr).before
    if called:  # a call that may hand on what it is given: the first premise to name
        return f"`{called[min(called)]}` is not proven to make new buffers"
    late = frozenset(o for o in others if _read_late(ctx, cls, o, before))
    for other in sorted(others):
        reason = _unspent(ctx, cls, attr, other, before, late)
        if reason is not None:
            return f"`{me}.{other}` {reason}"
    return None if others else "it reads no attribute autoopt follows"


def _method_call(ctx: ModuleContext, node: cst.CSTNode) -> cst.Call | None:
    """The call `self.x.m(...)` whose receiver is `node` (`self.x`), or None."""
    path = ctx.ancestors(node)
    if len(path) < 3 or type(path[-2]) is not cst.Attribute or type(path[-3]) is not cst.Call:
        return None
    call = path[-3]
    return call if call.func is path[-2] else None


def _read_late(ctx: ModuleContext, cls: str, other: str, before: frozenset[str]) -> bool:
    """`self.other` is read in a method that may run after a step."""
    return any(not is_store(u) and u.method.qualname not in before for u in uses(ctx, cls, other))


def _unspent(
    ctx: ModuleContext,
    cls: str,
    attr: str,
    other: str,
    before: frozenset[str],
    late: frozenset[str],
) -> str | None:
    """Why `self.other` may be read once a step has donated what it holds (None: it
    holds new buffers, read only by methods in `before` or while `self.attr` is None
    (`facts/none_guards.py`: the attributes `late`), each read only into the record that
    replaces `self.attr`, and nothing outside the class names it or may reach it:
    `self_attrs.closed_class`; a trainer handed to `copy.deepcopy` after a step would
    copy deleted buffers)."""
    inside = {id(u.node) for u in uses(ctx, cls, other)}
    members = set(family(ctx, cls))
    for stmt in ctx.graph.stmts:
        if stmt.scope.split(".")[0] in members:
            continue
        for root in roots(stmt):
            for node, _ in walk_parents(root, None):
                named = type(node) is cst.Attribute and node.attr.value == other
                if named and id(node) not in inside:
                    return f"is reached outside `{cls}` at line {ctx.span(stmt.node).line}"
    stored = False
    for u in uses(ctx, cls, other):
        line = ctx.span(u.stmt.node).line
        if type(u.node) is not cst.Attribute:
            return f"may be reached through `{ctx.code(u.node)}` at line {line}"
        if is_store(u) and not fresh_store(ctx, u):
            return f"is stored at line {line} a value not proven new buffers"
        if not is_store(u) and u.method.qualname not in before:
            reason = _late_reason(ctx, cls, attr, other, u, late)
            if reason is not None:
                return f"is read at line {line}, where a step may have run{reason}"
        if not is_store(u) and not keeps_nothing(ctx, u, attr):
            return f"is read at line {line} other than into the record replacing `self.{attr}`"
        stored = stored or is_store(u)
    if not stored:
        return "is never stored by the class"
    closed = closed_class(ctx, cls, other)
    return f"may be read after a step by code autoopt cannot see: {closed}" if closed else None


def _late_reason(
    ctx: ModuleContext, cls: str, attr: str, other: str, use: Use, late: frozenset[str]
) -> str | None:
    """Why the read `use` of `self.other`, in a method that may run after a step, may
    find its buffers donated ("": it is not read only while `self.attr` is None; None:
    it is, and `self.attr` is None only while `late` hold buffers no step donated)."""
    if not none_guarded(use, attr):
        return ""
    reason = closed_class(ctx, cls, other) or confinement(ctx, cls, attr).reason
    reason = reason or quiet_reason(ctx, use, cls)
    if reason is not None:
        return f" (only while `self.{attr}` is None, but {reason})"
    reason = none_reason(ctx, cls, attr, late)
    if reason is not None:
        return f" (only while `self.{attr}` is None, which it may be after a step: {reason})"
    return None


def _other_attributes(
    ctx: ModuleContext, stmt: Stmt, values: list[cst.BaseExpression], me: str, attr: str
) -> str:
    """The attributes of `me` but `attr` that `values` read (`self.init_params`), named;
    `self.model` for `self.model.init(...)`, not `self.model.init`."""
    found: dict[str, None] = {}
    for value in values:
        for node, _ in walk_parents(value, None):
            based = type(node) is cst.Attribute and type(node.value) is cst.Name
            if based and node.value.value == me and node.attr.value != attr:  # type: ignore[attr-defined]
                found[f"`{ctx.code(node)}`"] = None
    return ", ".join(found) or f"`{me}` itself"


def _leaves(
    ctx: ModuleContext, stmt: Stmt, sharing: Sharing, parts: list[cst.BaseExpression]
) -> list[frozenset[str]] | None:
    """The names behind each leaf of `parts` (None: cannot tell)."""
    out: list[frozenset[str]] = []
    for part in parts:
        leaves = Leaves(ctx, stmt, sharing).of(part, 0)
        if leaves is None:
            return None
        out += leaves
    return out


def _local_names(ctx: ModuleContext, scope: str) -> set[str]:
    """The names `scope` binds (not through `global` or `nonlocal`)."""
    fn = ctx.graph.functions[scope]
    bound = {n for s in ctx.graph.scope_stmts(scope) for n in s.defs}
    return bound - fn.globals - fn.nonlocals


def _sharing_without(ctx: ModuleContext, scope: str, stmt_id: int) -> Sharing:
    """The may-share relation of `scope` without the store `stmt_id` (which links the
    stored value to `self`)."""
    return Sharing(ctx, scope, skip=ctx.graph.stmts[stmt_id])
