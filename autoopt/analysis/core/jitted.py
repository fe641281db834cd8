"""Which callables of a module are compiled with `jax.jit`, and with which options.

Three spellings are recognised: a decorator (`@jax.jit`, `@jax.jit(...)`,
`@functools.partial(jax.jit, ...)`) and a wrapper bound to a name
(`step = jax.jit(_step, ...)`); asked for, the frameworks' jits too (`FRAMEWORK_JITS`,
`@eqx.filter_jit(donate="all")`, `@nnx.jit`), with their options as written. Call
sites are the direct calls of the bound name; any other reference (passed as a value,
returned, wrapped again) means autoopt cannot see every call, and `escapes` says so.
`jit_decorator` spells the decorator a fix writes here, so that its options are read
as written code's are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs, read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.walk import walk
from autoopt.model import RequireImport

#: The frameworks' jits read as jits (their options in their own spelling, as the
#: overlays declare them): equinox's `donate=` mode, nnx's jax.jit-like options.
FRAMEWORK_JITS = overlays.OPTION_JITS - {"jax.jit"}


@dataclass(frozen=True)
class Jitted:
    """A compiled callable: the name call sites use and the function it compiles."""

    name: str
    function: Function | None  # None for a lambda or another transform's output
    options: dict[str, cst.BaseExpression]
    carrier: cst.Decorator | cst.Call  # the decorator or `jax.jit(...)` call holding the options
    transform: str = "jax.jit"  # or one of FRAMEWORK_JITS


def jit_options(
    ctx: ModuleContext, expr: cst.BaseExpression, transform: str = "jax.jit"
) -> dict | None:
    """The keyword options of a `transform` spelling (`{}` for bare `jax.jit`), else None."""
    if ctx.is_jax(expr, transform):
        return {}
    if type(expr) is not cst.Call:
        return None
    if ctx.is_jax(expr.func, transform) and all(a.keyword is not None for a in expr.args):
        return _keywords(expr)
    first = expr.args[0] if expr.args else None
    if ctx.is_jax(expr.func, "functools.partial") and first and first.keyword is None:
        return _keywords(expr) if ctx.is_jax(first.value, transform) else None
    return None


def _spelled(
    ctx: ModuleContext, expr: cst.BaseExpression, frameworks: bool
) -> tuple[str, dict] | None:
    """The jit `expr` spells (`jax.jit`, or with `frameworks` one of FRAMEWORK_JITS) and
    its options, else None."""
    for transform in ("jax.jit", *(sorted(FRAMEWORK_JITS) if frameworks else ())):
        options = jit_options(ctx, expr, transform)
        if options is not None:
            return transform, options
    return None


def _keywords(call: cst.Call) -> dict[str, cst.BaseExpression]:
    return {a.keyword.value: a.value for a in call.args if a.keyword is not None}


def names_tuple(names: Sequence[str]) -> str:
    """`("a",)` or `("a", "b")`: names as a tuple literal."""
    inner = ", ".join(f'"{n}"' for n in names)
    return f"({inner},)" if len(names) == 1 else f"({inner})"


def option_text(static: Sequence[str] = (), donate: Sequence[str] = ()) -> str:
    """`static_argnames=("n",), donate_argnames=("state",)` (empty when none)."""
    parts = []
    if static:
        parts.append(f"static_argnames={names_tuple(static)}")
    if donate:
        parts.append(f"donate_argnames={names_tuple(donate)}")
    return ", ".join(parts)


def jit_decorator(
    ctx: ModuleContext, static: Sequence[str] = (), donate: Sequence[str] = ()
) -> tuple[str, tuple[RequireImport, ...]]:
    """`jax.jit` or `functools.partial(jax.jit, <options>)`, spelled with the
    module's own aliases, and the imports that spelling needs."""
    jit, imports = ctx.ref("jax.jit")
    options = option_text(static, donate)
    if not options:
        return jit, imports
    partial, more = ctx.ref("functools.partial")
    return f"{partial}({jit}, {options})", imports + more


def literal_names(expr: cst.BaseExpression) -> list[str] | None:
    """The names a literal `donate_argnames` value lists (`"a"`, `("a", "b")`, `["a"]`), or
    None when the value is not such a literal (a variable, a call, an f-string)."""
    if type(expr) is cst.SimpleString:
        return [str(expr.evaluated_value)]
    if type(expr) is not cst.Tuple and type(expr) is not cst.List:
        return None
    names = []
    for element in expr.elements:
        if type(element) is not cst.Element or type(element.value) is not cst.SimpleString:
            return None
        names.append(str(element.value.evaluated_value))
    return names


def literal_ints(expr: cst.BaseExpression | None) -> set[int] | None:
    """The positions a literal `static_argnums` value lists (`0`, `(0, 2)`, `[1]`; empty
    when absent), or None when the value is not such a literal."""
    if expr is None:
        return set()
    if type(expr) is cst.Integer:
        return {int(expr.value)}
    if type(expr) is cst.Tuple or type(expr) is cst.List:
        values = [e.value for e in expr.elements]
        if all(type(v) is cst.Integer for v in values):
            return {int(v.value) for v in values}  # type: ignore[attr-defined]  # Integer
    return None


def can_add_donation(expr: cst.BaseExpression) -> bool:
    """Whether names can be added to this jit spelling's `donate_argnames` (as
    `rewrite/jit.py`'s `with_donation` does): it is a literal, if any, and no `**options`
    may already hold one."""
    if type(expr) is not cst.Call:
        return True
    for arg in expr.args:
        if arg.star == "**":
            return False
        if arg.keyword is not None and arg.keyword.value == "donate_argnames":
            return literal_names(arg.value) is not None
    return True


def jitted_callables(ctx: ModuleContext, frameworks: bool = False) -> list[Jitted]:
    """Every decorated or wrapped jitted function whose name is bound exactly once
    (`frameworks`: compiled by one of FRAMEWORK_JITS too)."""
    return ctx.per_module(_jitted_callables, frameworks)


def _jitted_callables(ctx: ModuleContext, frameworks: bool) -> list[Jitted]:
    found = []
    for fn in ctx.graph.functions.values():
        if len(fn.node.decorators) != 1 or fn.is_method:
            continue
        decorator = fn.node.decorators[0]
        spelled = _spelled(ctx, decorator.decorator, frameworks)
        if spelled is not None and _bound_once(ctx, fn.name):
            transform, options = spelled
            found.append(Jitted(fn.name, fn, options, decorator, transform))
    for stmt in ctx.graph.stmts:
        wrapped = _wrapper(ctx, stmt, frameworks)
        if wrapped is not None and _bound_once(ctx, wrapped.name):
            found.append(wrapped)
    return found


def rebound_attribute_jits(ctx: ModuleContext, frameworks: bool = False) -> list[Jitted]:
    """The jits bound to one attribute of `self` by several statements, each
    `self.step = jax.jit(f)` in a method (a subclass binds its own step): a call
    `self.step(...)` runs one of them, compiled either way."""
    return ctx.per_module(_rebound_attribute_jits, frameworks)


def _rebound_attribute_jits(ctx: ModuleContext, frameworks: bool) -> list[Jitted]:
    binders, _ = ctx.per_module(_bindings)
    found: dict[str, list[Jitted]] = {}
    for stmt in ctx.graph.stmts:
        wrapped = _wrapper(ctx, stmt, frameworks)
        if wrapped is not None and "." in wrapped.name:
            found.setdefault(wrapped.name, []).append(wrapped)
    return [
        j
        for name, jits in found.items()
        if len(jits) > 1 and binders.get("." + name.rsplit(".", 1)[1]) == len(jits)
        for j in jits
    ]


def _wrapper(ctx: ModuleContext, stmt: Stmt, frameworks: bool) -> Jitted | None:
    """`name = jax.jit(func, ...)` (or a framework's jit); `function` is set when `func` is
    a plain module function."""
    node = stmt.node
    if not (type(node) is cst.Assign and len(node.targets) == 1):
        return None
    target, call = node.targets[0].target, node.value
    name = _self_attribute(ctx, stmt, target) if type(target) is cst.Attribute else None
    if type(target) is cst.Name:
        name = target.value
    if name is None or type(call) is not cst.Call:
        return None
    transforms = ("jax.jit", *(FRAMEWORK_JITS if frameworks else ()))
    transform = next((t for t in transforms if ctx.is_jax(call.func, t)), None)
    if transform is None or not call.args or call.args[0].keyword is not None:
        return None
    first = call.args[0].value
    fn = ctx.graph.resolve_function(first.value, stmt.scope) if type(first) is cst.Name else None
    if fn is not None and (fn.node.decorators or fn.is_method):
        fn = None
    return Jitted(name, fn, _keywords(call), call, transform)


def _self_attribute(ctx: ModuleContext, stmt: Stmt, target: cst.Attribute) -> str | None:
    """`self.step` when `target` is an attribute of the first parameter of the method
    `stmt` is in (`self.step = jax.jit(step)` in a method)."""
    fn = ctx.graph.functions.get(stmt.scope)
    if fn is None or not fn.is_method or not fn.params or fn.node.decorators:
        return None
    base = target.value
    return (
        f"{fn.params[0]}.{target.attr.value}"
        if type(base) is cst.Name and (base.value == fn.params[0])
        else None
    )


def _bound_once(ctx: ModuleContext, name: str) -> bool:
    """Bound by one statement (`self.step`: no other attribute `step` is bound anywhere)."""
    binders, params = ctx.per_module(_bindings)
    if "." in name:
        return binders.get("." + name.rsplit(".", 1)[1]) == 1
    return binders.get(name) == 1 and name not in params


def _bindings(ctx: ModuleContext) -> tuple[dict[str, int], set[str]]:
    """How many statements bind each name (and each attribute name, as `.attr`), and
    every parameter name."""
    binders: dict[str, int] = {}
    for stmt in ctx.graph.stmts:
        for name in stmt.defs | _attribute_targets(stmt):
            binders[name] = binders.get(name, 0) + 1
    return binders, {p for f in ctx.graph.functions.values() for p in f.params}


def _attribute_targets(stmt: Stmt) -> frozenset[str]:
    """`.attr` for each attribute the statement binds (`x.attr = v`, `for x.attr in`)."""
    node = stmt.node
    targets: list[cst.BaseExpression] = []
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) in (cst.AugAssign, cst.AnnAssign, cst.For):
        targets = [node.target]  # type: ignore[attr-defined]
    found: set[str] = set()
    while targets:
        target = targets.pop()
        if type(target) is cst.Tuple or type(target) is cst.List:
            targets += [e.value for e in target.elements]
        elif type(target) is cst.Attribute:
            found.add("." + target.attr.value)
    return frozenset(found)


def own_exprs(stmt: Stmt) -> list[cst.CSTNode]:
    """The expressions a statement itself evaluates (a loop header: not its body)."""
    return evaluated_exprs(stmt.node)


def call_sites(ctx: ModuleContext, name: str) -> list[CallSite]:
    """The direct calls `name(...)` anywhere in the module."""
    return [CallSite(stmt, call) for stmt, call in ctx.per_module(_direct_calls).get(name, [])]


def _direct_calls(ctx: ModuleContext) -> dict[str, list[tuple[Stmt, cst.Call]]]:
    """Name -> the calls `name(...)`, in source order."""
    calls: dict[str, list[tuple[Stmt, cst.Call]]] = {}
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            func = call.func
            if type(func) is cst.Name and func.value in stmt.uses:
                calls.setdefault(func.value, []).append((stmt, call))
            elif type(func) is cst.Attribute and type(func.value) is cst.Name:
                calls.setdefault(f"{func.value.value}.{func.attr.value}", []).append((stmt, call))
    return calls


def escapes(
    ctx: ModuleContext, name: str, importable: bool = True, through: frozenset[str] = frozenset()
) -> str | None:
    """How `name` reaches code autoopt cannot see, or None when only called here
    (`importable`: a module-level name, which other modules may import; `through`:
    transforms whose immediate call counts as a call, `jax.grad(name)(...)`)."""
    reason = _escape(ctx, name, importable, through)
    return None if reason is None else reason()


def is_escaping(
    ctx: ModuleContext, name: str, importable: bool = True, through: frozenset[str] = frozenset()
) -> bool:
    """Whether `escapes` finds a way out, without placing it (positions cost a
    code generation of the statement)."""
    return _escape(ctx, name, importable, through) is not None


def _escape(
    ctx: ModuleContext, name: str, importable: bool, through: frozenset[str]
) -> Callable[[], str] | None:
    """`escapes`'s reason, made only when asked for."""
    if "." in name:
        return _attribute_escape(ctx, name)
    if name in ctx.per_module(_dunder_all):
        return lambda: f"`{name}` is exported in `__all__`"
    for stmt in ctx.per_module(_readers).get(name, ()):
        reads = [n for e in own_exprs(stmt) for n in read_names(e) if n.value == name]
        called = {id(c.func) for c in stmt.calls}
        called |= {id(f.args[0].value) for c in stmt.calls if (f := _through(ctx, c, through))}
        if any(id(n) not in called for n in reads):
            node = stmt.node
            return lambda: f"`{name}` is used as a value at line {ctx.span(node).line}"
    if importable and not name.startswith("_") and not ctx.per_module(_is_script):
        return lambda: f"`{name}` is public and the module may be imported"
    return None


def _attribute_escape(ctx: ModuleContext, name: str) -> Callable[[], str] | None:
    """`self.step`: any attribute `step` read other than called as `self.step(...)`."""
    attr = name.rsplit(".", 1)[1]
    for stmt in ctx.graph.stmts:
        called = {id(c.func) for c in stmt.calls if dotted(c.func) == name}
        bound = "." + attr in _attribute_targets(stmt)
        for expr in own_exprs(stmt):
            for node in walk(expr):
                named = type(node) is cst.Attribute and node.attr.value == attr
                if named and id(node) not in called and not bound:
                    line = stmt.node
                    return lambda: f"`{name}` is used as a value at line {ctx.span(line).line}"
    return None


def _through(ctx: ModuleContext, call: cst.Call, transforms: frozenset[str]) -> cst.Call | None:
    """`T(f)` when `call` is `T(f)(...)` for a transform `T` in `transforms`."""
    func = call.func
    if not transforms or type(func) is not cst.Call or len(func.args) != 1:
        return None
    arg = func.args[0]
    if arg.keyword is not None or arg.star:
        return None
    return func if ctx.qualify(func.func) in transforms else None


def _readers(ctx: ModuleContext) -> dict[str, list[Stmt]]:
    """Name -> the statements that read it, in source order."""
    readers: dict[str, list[Stmt]] = {}
    for stmt in ctx.graph.stmts:
        for name in stmt.uses:
            readers.setdefault(name, []).append(stmt)
    return readers


def _dunder_all(ctx: ModuleContext) -> set[str]:
    names: set[str] = set()
    for stmt in ctx.graph.scope_stmts(MODULE):
        if "__all__" in stmt.defs and (
            type(stmt.node) is cst.Assign or type(stmt.node) is cst.AugAssign
        ):
            value = stmt.node.value
            if type(value) is cst.List or type(value) is cst.Tuple:
                names |= {
                    e.value.evaluated_value  # type: ignore[misc]  # str, or bytes nobody imports
                    for e in value.elements
                    if type(e.value) is cst.SimpleString
                }
    return names


def is_script(ctx: ModuleContext) -> bool:
    """`_is_script`, once per module."""
    return ctx.per_module(_is_script)


def _is_script(ctx: ModuleContext) -> bool:
    """A program rather than a library: a `__main__` guard, `main()`, or top-level work
    (a loop, or a call of one of its own functions)."""
    if "main" in ctx.graph.functions:
        return True
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.If and "__name__" in stmt.uses:
            return True
        if stmt.loops or stmt.comprehension or _calls_own_function(ctx, stmt):
            return True
    return False


def _calls_own_function(ctx: ModuleContext, stmt: Stmt) -> bool:
    return any(
        type(c.func) is cst.Name and ctx.graph.resolve_function(c.func.value, MODULE)
        for c in stmt.calls
    )
