"""Whether the arguments an `eqx.filter_jit` step must keep can be passed first.

`eqx.filter_jit` donates by position: `donate="all-except-first"` donates the array
leaves of every argument but the first (the first as `inspect.Signature.bind` places it,
passed by position or by keyword). equinox's own advice for donating only some arguments
is to pass the others through the first, packed in a tuple when there are several. That
changes the function's signature, so it is proven only where every use of it is a call
the rewrite updates too:

- the function is a module-level `def` whose one decorator is its `eqx.filter_jit`, and
  every caller is in sight (`facts/known_callers.py`, `unseen_callers`);
- every read of its name is the callee of a direct call outside its own body (no value,
  no `functools.partial`, no attribute such as `.lower`, no shadowing name);
- its parameters are plain (no positional-only ones, no `*args` or `**kwargs`) and each
  kept one is positional, without a default, and never returned as it is (an output that
  may be its very buffer would replace a donated argument);
- every call passes no `*args` or `**kwargs` and binds each kept parameter; the arguments
  whose order of evaluation the move changes are names or literals, which have no effect;
- no comment sits between the parameters or the arguments that move (it would be detached);
- several kept parameters are packed under a name the module does not use, unpacked by
  the body's first statement (after a docstring); the body is an indented block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.known_callers import unseen_callers

#: The name of the packed first parameter (suffixed until the module does not use it).
PACK = "undonated"
_ATOMS = (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class KeepFirst:
    """The kept parameters, in signature order; the packed parameter's name ("" for one
    kept parameter, moved first as it is); every call of the function."""

    kept: tuple[str, ...]
    pack: str
    calls: tuple[cst.Call, ...]


def keep_first(ctx: ModuleContext, fn: Function, kept: list[str]) -> KeepFirst | str:
    """The plan that passes `kept` first, or the premise that fails."""
    name = fn.name
    problem = _signature_problem(fn, kept) or unseen_callers(ctx, fn, jitted=True)
    if problem:
        return problem
    calls: list[cst.Call] = []
    own = {id(n) for n in walk(fn.node) if type(n) is cst.Call}
    for node, call in ctx.per_module(_names).get(name, ()):
        if node is fn.node.name:
            continue
        if call is None:
            return f"`{name}` is used other than called at line {ctx.span(node).line}"
        if id(call) in own:
            return f"`{name}` calls itself at line {ctx.span(call).line}"
        problem = _call_problem(ctx, fn, call, kept)
        if problem:
            return problem
        calls.append(call)
    pack = _fresh(ctx) if len(kept) > 1 else ""
    return KeepFirst(tuple(kept), pack, tuple(calls))


def positional(fn: Function) -> list[str]:
    """The function's positional parameters, in order."""
    return [p.name.value for p in fn.node.params.params]


def bound(fn: Function, call: cst.Call) -> list[str]:
    """The parameter each argument of `call` binds, in the call's order (checked by
    `_call_problem`: no `*args`, no unknown keyword)."""
    names = positional(fn)
    return [names[i] if a.keyword is None else a.keyword.value for i, a in enumerate(call.args)]


def _signature_problem(fn: Function, kept: list[str]) -> str:
    node = fn.node
    params = node.params
    if len(node.decorators) != 1:
        return f"`{fn.name}` has other decorators than its jit, which may read its signature"
    if params.posonly_params or type(params.star_arg) is cst.Param or params.star_kwarg:
        return f"`{fn.name}` takes positional-only parameters, `*args` or `**kwargs`"
    plain = {p.name.value: p for p in params.params}
    for param in kept:
        if param not in plain or plain[param].default is not None:
            return f"`{param}` is keyword-only or has a default: it cannot be passed first"
        if param in _returned(node):
            return (
                f"`{fn.name}` returns `{param}`, which it keeps: an output that may be its "
                "buffer would replace a donated argument"
            )
    if len(kept) > 1 and type(node.body) is not cst.IndentedBlock:
        return f"the body of `{fn.name}` is on the line of its `def`"
    if _commented(params.params):
        return f"a comment sits between the parameters of `{fn.name}`"
    return ""


def _returned(node: cst.FunctionDef) -> set[str]:
    """The names the function's own `return`s give as they are (or as tuple elements)."""
    found: set[str] = set()

    class _Returns(cst.CSTVisitor):
        def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
            return inner is node

        def visit_Lambda(self, _: cst.Lambda) -> bool:
            return False

        def visit_Return(self, ret: cst.Return) -> None:
            value = ret.value
            values = [e.value for e in value.elements] if type(value) is cst.Tuple else [value]
            found.update(v.value for v in values if type(v) is cst.Name)

    node.visit(_Returns())
    return found


def _call_problem(ctx: ModuleContext, fn: Function, call: cst.Call, kept: list[str]) -> str:
    line = ctx.span(call).line
    names = positional(fn)
    keywords = {*names, *(p.name.value for p in fn.node.params.kwonly_params)}
    count = sum(a.keyword is None for a in call.args)
    if any(a.star for a in call.args) or count > len(names):
        return f"the call at line {line} passes `*args`, `**kwargs` or too many arguments"
    if any(a.keyword is not None and a.keyword.value not in keywords for a in call.args):
        return f"the call at line {line} passes a keyword `{fn.name}` does not take"
    params = bound(fn, call)
    if not set(kept) <= set(params):
        return f"the call at line {line} does not pass every kept argument"
    moved = _moved(params, kept)
    for early, late in _swapped(list(range(len(params))), moved):
        first, then = call.args[early].value, call.args[late].value
        if not _commute(ctx, call, first, then):
            return (
                f"the call at line {line} evaluates `{ctx.code(first)}` before "
                f"`{ctx.code(then)}`, an order passing the kept arguments first would change"
            )
    if _commented(call.args):
        return f"a comment sits between the arguments of the call at line {line}"
    return ""


def _commute(
    ctx: ModuleContext, call: cst.Call, one: cst.BaseExpression, other: cst.BaseExpression
) -> bool:
    """Whether evaluating `one` and `other` in either order gives the same: names and
    literals, a literal and anything, or a name no evaluation can rebind (a local of the
    calling function that no function declares `nonlocal`) and an expression without `:=`."""
    if type(one) in _ATOMS and type(other) in _ATOMS:
        return True
    if type(other) is cst.Name or (type(other) in _ATOMS and type(one) not in _ATOMS):
        one, other = other, one
    if type(one) in _ATOMS and type(one) is not cst.Name:
        return True
    if type(one) is not cst.Name:
        return False
    no_walrus = not any(type(n) is cst.NamedExpr for n in walk(other))
    return no_walrus and _local(ctx, call, one.value)


def _local(ctx: ModuleContext, call: cst.Call, name: str) -> bool:
    """`name` is a local of the function that makes `call`, and no function rebinds it
    through `nonlocal`."""
    stmt = ctx.graph_statement(call)
    fn = None if stmt is None else ctx.graph.functions.get(stmt.scope)
    if fn is None or name in fn.globals | fn.nonlocals:
        return False
    if any(name in f.nonlocals for f in ctx.graph.functions.values()):
        return False
    defs = {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs}
    return name in defs or name in fn.params


def _moved(params: list[str], kept: list[str]) -> list[int]:
    """The argument indices in their new order: kept ones first (in `kept`'s order)."""
    first = [params.index(k) for k in kept]
    return first + [i for i in range(len(params)) if i not in first]


def _swapped(old: list[int], new: list[int]) -> list[tuple[int, int]]:
    """The pairs of indices whose relative order differs between `old` and `new`."""
    at = {i: n for n, i in enumerate(new)}
    return [(a, b) for x, a in enumerate(old) for b in old[x + 1 :] if at[a] > at[b]]


def _commented(items: Sequence[cst.Param | cst.Arg]) -> bool:
    """Whether a comment sits after one of these parameters or arguments (with its
    separator), where it would stay at its place when they move."""
    found = False

    class _Comments(cst.CSTVisitor):
        def visit_Comment(self, _: cst.Comment) -> None:
            nonlocal found
            found = True

    for item in items:
        field = "whitespace_after_param" if type(item) is cst.Param else "whitespace_after_arg"
        after = getattr(item, field)
        for part in (item.comma, after):
            if isinstance(part, cst.CSTNode):
                part.visit(_Comments())
    return found


def _names(ctx: ModuleContext) -> dict[str, list[tuple[cst.Name, cst.Call | None]]]:
    """Name -> every `Name` node of the module that is not an attribute's name or a call's
    keyword, with the call whose callee it is (else None)."""
    found: dict[str, list[tuple[cst.Name, cst.Call | None]]] = {}
    skip: set[int] = set()
    callee: dict[int, cst.Call] = {}

    class _Names(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            callee[id(node.func)] = node

        def visit_Attribute(self, node: cst.Attribute) -> None:
            skip.add(id(node.attr))

        def visit_Arg(self, node: cst.Arg) -> None:
            if node.keyword is not None:
                skip.add(id(node.keyword))

        def visit_Name(self, node: cst.Name) -> None:
            if id(node) not in skip:
                found.setdefault(node.value, []).append((node, callee.get(id(node))))

    ctx.module.visit(_Names())
    return found


def _fresh(ctx: ModuleContext) -> str:
    """`PACK`, suffixed until no identifier of the module spells it."""
    used = set(_IDENTIFIER.findall(ctx.source))
    name, n = PACK, 1
    while name in used:
        name, n = f"{PACK}_{n}", n + 1
    return name
