"""Whether a call may donate an array it is given: proven no, yes, or unknown.

A donation deletes the buffer it is given, so code that hands one array to several
calls (a transfer hoisted out of a loop, a value kept for later) needs every call that
receives it proven not to donate. Proven not to donate: a `jax.jit` (or a framework's
jit, `core/jitted.py`) whose options are written out and name no donation; a JAX or
NumPy function (`overlays/jax.py` `NON_DONATING_PREFIXES`, NumPy but the functions that
call a function they are given); a Python builtin that reads its arguments
(`overlays/python.py`); a method of a name proven an array, or of a Python container;
a function of the module bound once, undecorated, that hands its arguments only to such
calls (followed into its body). Donates: a jit with a donation option. Unknown:
everything else, with the premise that fails named (`**options`, a container lookup,
a parameter, a decorator autoopt cannot see through, the result of a call such as
`.lower(...).compile()` or `functools.partial(jax.jit, ...)(f)`, an import).

`passed_on` follows a value through the statements of its scope (the names it is bound
to, the calls and containers it goes into) and asks `call_donation` of every call that
may receive it; a value stored in an attribute or an item, yielded, or read by another
function is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, Function, Loop, Stmt
from autoopt.analysis.core.jitted import FRAMEWORK_JITS, jit_options, jitted_callables, own_exprs
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Builtins that read their arguments and keep nothing of them.
_BUILTINS = python_api.READ_ONLY_BUILTINS | python_api.FRESH_BUILTINS
#: Methods of Python containers: none donates what it is given.
_CONTAINER_METHODS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "get", "pop", "copy",
     "index", "count", "keys", "values", "items"}
)  # fmt: skip

#: Displays and comprehensions that make a new Python container.
_DISPLAYS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)


class May(Enum):
    """Whether a call may donate an argument."""

    NO = "proven not to donate"
    YES = "donates"
    UNKNOWN = "not known"


@dataclass(frozen=True)
class Verdict:
    """The answer and, unless proven no, the premise that decides it, as text."""

    may: May
    why: str = ""


NO = Verdict(May.NO)


def call_donation(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, seen: frozenset[str] = frozenset()
) -> Verdict:
    """May `call` (evaluated by `stmt`) donate an argument it is given?"""
    func = call.func
    if type(func) is cst.Call:
        return _jit_call(ctx, func)
    qual = ctx.qualify(func)
    if qual is not None:
        return _library(ctx, func, qual)
    if type(func) is cst.Name:
        return _named(ctx, stmt, func.value, seen)
    if type(func) is cst.Attribute:
        return _method(ctx, stmt, func)
    if type(func) is cst.Subscript:
        return Verdict(
            May.UNKNOWN,
            f"`{ctx.code(func)}` is looked up in a container: what it donates is not known",
        )
    return Verdict(May.UNKNOWN, f"`{ctx.code(func)}` is a callable autoopt cannot see into")


def passed_on(
    ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression, after: Loop | None = None
) -> tuple[Verdict, cst.Call | None]:
    """Whether a call may donate the value `expr` gives where `stmt` evaluates it, or
    one of the names it is then bound to in the scope (only the statements that may run
    once `after` starts, when given): the first call that may (or the verdict, with no
    call, on how the value leaves what autoopt follows)."""
    region = None if after is None else _from_loop(ctx, after)
    return _follow(ctx, stmt.scope, [(stmt, expr)], set(), frozenset(), region)


def _from_loop(ctx: ModuleContext, loop: Loop) -> list[Stmt]:
    """The statements of the loop's scope that may run once it starts: its own, those
    after it and those of the loops around it."""
    end = ctx.span(loop.node).end_line
    around = set(ctx.graph.stmts[loop.header].loops) | {loop.id}
    return [
        s
        for s in ctx.graph.scope_stmts(loop.scope)
        if around & set(s.loops) or ctx.span(s.node).line > end
    ]


def _follow(
    ctx: ModuleContext,
    scope: str,
    queue: list[tuple[Stmt, cst.CSTNode]],
    holders: set[str],
    seen: frozenset[str],
    region: list[Stmt] | None = None,
) -> tuple[Verdict, cst.Call | None]:
    """Follow the value from `queue` and every read of `holders` in `scope` (in its
    statements `region`, when given)."""
    done: set[int] = set()
    stmts = ctx.graph.scope_stmts(scope) if region is None else region
    while True:
        for stmt, node in queue:
            done.add(id(node))
            verdict, call = _flow_at(ctx, stmt, node, holders, seen)
            if verdict.may is not May.NO:
                return verdict, call
        queue = [
            (s, n)
            for s in stmts
            for e in own_exprs(s)
            for n in read_names(e)
            if n.value in holders and id(n) not in done
        ]
        if not queue:
            break
    return _outside(ctx, scope, holders), None


def _flow_at(
    ctx: ModuleContext, stmt: Stmt, node: cst.CSTNode, holders: set[str], seen: frozenset[str]
) -> tuple[Verdict, cst.Call | None]:
    """The calls `node`'s value goes into in `stmt`, up to the names `stmt` binds."""
    chain = ctx.ancestors(node)
    for parent in reversed(chain[:-1]):
        if parent is stmt.node:
            break
        if type(parent) is cst.Lambda or type(parent) is cst.Yield:
            what = "a lambda reads it" if type(parent) is cst.Lambda else "it is yielded"
            return Verdict(May.UNKNOWN, f"{what} at line {ctx.span(parent).line}"), None
        if type(parent) is cst.Call:
            verdict = call_donation(ctx, stmt, parent, seen)
            if verdict.may is not May.NO:
                return verdict, parent
            base = getattr(parent.func, "value", None)
            if type(base) is cst.Name and not ctx.qualify(parent.func):
                holders.add(base.value)  # `xs.append(x)`: `xs` holds it
    stored = _stored(ctx, stmt)
    if stored is not None:
        return Verdict(May.UNKNOWN, stored), None
    holders |= stmt.defs
    return NO, None


def _stored(ctx: ModuleContext, stmt: Stmt) -> str | None:
    """`obj.attr = ...` or `obj[k] = ...`: the value may be kept where autoopt cannot follow."""
    node = stmt.node
    targets: list[cst.BaseExpression] = []
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
        targets = [node.target]
    while targets:
        target = targets.pop()
        if type(target) is cst.Tuple or type(target) is cst.List:
            targets += [e.value for e in target.elements]
        elif type(target) is cst.Attribute or type(target) is cst.Subscript:
            return f"it is stored in `{ctx.code(target)}` at line {ctx.span(node).line}"
    return None


def _outside(ctx: ModuleContext, scope: str, holders: set[str]) -> Verdict:
    """Unknown when a name holding the value lives outside `scope` or another function
    reads it."""
    fn = ctx.graph.functions.get(scope)
    if fn is not None:
        local = {n for s in ctx.graph.scope_stmts(scope) for n in s.defs} | set(fn.params)
        hit = sorted(holders - local | holders & (fn.captured | fn.globals | fn.nonlocals))
        if hit:
            return Verdict(May.UNKNOWN, f"`{hit[0]}` may be read by code outside `{fn.name}`")
        return NO
    for other in ctx.graph.functions.values():
        stmts = ctx.graph.scope_stmts(other.qualname)
        local = {n for s in stmts for n in s.defs} | set(other.params)
        read = sorted(holders & ({n for s in stmts for n in s.uses} - local))
        if read:
            return Verdict(May.UNKNOWN, f"the function `{other.name}` reads `{read[0]}`")
    return NO


def _library(ctx: ModuleContext, func: cst.BaseExpression, qual: str) -> Verdict:
    if qual.startswith(jax_api.NON_DONATING_PREFIXES) or qual in jax_api.NON_DONATING_CALLS:
        return NO
    if qual.startswith("numpy.") and qual not in numpy_api.CALLING_FUNCTIONS:
        return NO
    return Verdict(
        May.UNKNOWN, f"`{ctx.code(func)}` (`{qual}`) is not known not to donate its arguments"
    )


def _jit_call(ctx: ModuleContext, func: cst.Call) -> Verdict:
    """`jax.jit(f, ...)(x)`: the jit's options decide."""
    for transform in ("jax.jit", *sorted(FRAMEWORK_JITS)):
        options = jit_options(ctx, func, transform)
        if options is None and ctx.is_jax(func.func, transform) and _one_function(func):
            options = {a.keyword.value: a.value for a in func.args if a.keyword is not None}
        if options is not None:
            return _jit_verdict(ctx, func, options, transform, ctx.code(func.func))
    return Verdict(May.UNKNOWN, f"`{ctx.code(func)}` is the result of a call")


def _one_function(call: cst.Call) -> bool:
    """`jit(f, option=...)`: the function alone by position, every option by keyword."""
    positional = [a for a in call.args if a.keyword is None and a.star != "**"]
    return len(positional) == 1 and positional[0] is call.args[0] and not positional[0].star


def _jit_verdict(
    ctx: ModuleContext,
    spelling: cst.BaseExpression,
    options: dict[str, cst.BaseExpression],
    transform: str,
    shown: str,
) -> Verdict:
    """Donates when an option names a donation, unknown when `**options` may."""
    spread = [a for a in getattr(spelling, "args", ()) if a.star == "**"]
    if spread:
        return Verdict(
            May.UNKNOWN,
            f"`{shown}` is jitted with `**{ctx.code(spread[0].value)}`, which may "
            "donate its arguments",
        )
    mode = overlays.JIT_DONATE_MODES.get(transform)
    if mode in options:
        value = options[mode]
        if type(value) is cst.SimpleString and value.evaluated_value == "none":
            return NO
        return Verdict(May.YES, f"`{shown}` donates its arguments (`{mode}={ctx.code(value)}`)")
    for option in overlays.JIT_DONATE_OPTIONS.get(transform, ()):
        if option in options:
            text = ctx.code(options[option])
            return Verdict(May.YES, f"`{shown}` donates its arguments (`{option}={text}`)")
    return NO


def _named(ctx: ModuleContext, stmt: Stmt, name: str, seen: frozenset[str]) -> Verdict:
    """A bare name: a jitted function, a function of the module, a builtin, or unknown."""
    for jitted in jitted_callables(ctx, True):
        if jitted.name == name:
            carrier = jitted.carrier
            spelling = carrier.decorator if isinstance(carrier, cst.Decorator) else carrier
            return _jit_verdict(ctx, spelling, jitted.options, jitted.transform, name)
    given = _parameter_of(ctx, stmt.scope, name)
    if given is not None:
        return Verdict(
            May.UNKNOWN,
            f"`{name}` is a parameter of `{given}`: what the function it is given "
            "donates is not known",
        )
    fn = ctx.graph.resolve_function(name, stmt.scope)
    if fn is not None and _bound_once(ctx, name):
        return _function(ctx, fn, seen)
    if name in _BUILTINS and not _binders(ctx, name):
        return NO
    return Verdict(May.UNKNOWN, _unseen(ctx, name))


def _unseen(ctx: ModuleContext, name: str) -> str:
    """Why what `name` donates is not known: it is a call's result, or not seen."""
    binders = [s for s in ctx.graph.stmts if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is cst.Assign and type(node.value) is cst.Call:
        line = ctx.span(node).line
        return f"`{name}` is the result of a call at line {line}: what it donates is not known"
    return f"`{name}` is not a function autoopt can see into"


def _function(ctx: ModuleContext, fn: Function, seen: frozenset[str]) -> Verdict:
    """A function of the module: proven not to donate when undecorated and every call
    its arguments go into is proven not to."""
    if fn.node.decorators:
        decorator = ctx.code(fn.node.decorators[0].decorator)
        return Verdict(
            May.UNKNOWN, f"`{fn.name}` has a decorator autoopt cannot see through (`@{decorator}`)"
        )
    if fn.is_method or fn.qualname in seen:
        return Verdict(May.UNKNOWN, f"`{fn.name}` is a method or calls itself")
    verdict, _ = _follow(ctx, fn.qualname, [], set(fn.params), seen | {fn.qualname})
    if verdict.may is May.NO:
        return NO
    return Verdict(verdict.may, f"`{fn.name}` hands on its arguments: {verdict.why}")


def _method(ctx: ModuleContext, stmt: Stmt, func: cst.Attribute) -> Verdict:
    """A method of a value proven an array (but `.delete()`) or a Python container."""
    kind = model(ctx).value_of(stmt, func.value).kind
    if kind is Kind.ARRAY or kind is Kind.HOST_ARRAY:
        if func.attr.value == "delete":
            return Verdict(May.YES, f"`{ctx.code(func)}` deletes the array")
        return NO
    if func.attr.value in _CONTAINER_METHODS and _literal_container(ctx, stmt, func.value):
        return NO
    return Verdict(May.UNKNOWN, f"`{ctx.code(func)}` is a method autoopt cannot resolve")


def _literal_container(ctx: ModuleContext, stmt: Stmt, base: cst.BaseExpression) -> bool:
    """`base` is a local name every binding of which is a list, dict or set display
    (`scores = []`) or comprehension."""
    fn = ctx.graph.functions.get(stmt.scope)
    if type(base) is not cst.Name or fn is None:
        return False
    name = base.value
    if name in set(fn.params) | fn.globals | fn.nonlocals:
        return False
    binders = [s.node for s in ctx.graph.scope_stmts(stmt.scope) if name in s.defs]
    return bool(binders) and all(type(_bound_value(n, name)) in _DISPLAYS for n in binders)


def _bound_value(node: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """What `name = value` or `a, name = x, value` binds `name` to, else None."""
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    if type(target) is cst.Name:
        return value if target.value == name else None
    if type(target) is not cst.Tuple or type(value) is not cst.Tuple:
        return None
    if len(target.elements) != len(value.elements):
        return None
    for left, right in zip(target.elements, value.elements, strict=True):
        if type(left.value) is cst.Name and left.value.value == name:
            return right.value
    return None


def _parameter_of(ctx: ModuleContext, scope: str, name: str) -> str | None:
    """The enclosing function whose parameter `name` is, where `scope` reads it."""
    while scope != MODULE:
        fn = ctx.graph.functions.get(scope)
        if fn is None:
            return None
        if name in fn.params:
            return fn.name
        if any(name in s.defs for s in ctx.graph.scope_stmts(scope)):
            return None
        scope = fn.scope
    return None


def _binders(ctx: ModuleContext, name: str) -> int:
    """How many statements of the module bind `name` (parameters count too)."""
    params = sum(name in f.params for f in ctx.graph.functions.values())
    return params + sum(name in s.defs for s in ctx.graph.stmts)


def _bound_once(ctx: ModuleContext, name: str) -> bool:
    return _binders(ctx, name) == 1
