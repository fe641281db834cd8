"""AO101 missing-jit."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis import purity, tracing
from autoopt.analysis.callsites import ArgKind, argument_for, classify
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import CallSite, Function
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace
from autoopt.rewrite.jit import add_decorator, fresh_name, jit_call, jit_decorator
from autoopt.rules.base import Rule
from autoopt.rules.examples import ao101_missing_jit as examples

#: Calls that hand a function to code that pickles it or runs it elsewhere.
_PICKLING = ("pickle.", "cloudpickle.", "multiprocessing.", "concurrent.futures.", "ray.")
_PICKLING_METHODS = frozenset({"map", "imap", "starmap", "submit", "apply_async", "remote"})
_NONE = Applicability.NONE


class MissingJit(Rule):
    """
    ## What it does
    Finds a pure array function that is called over and over (in a loop, or in a
    comprehension) without `jax.jit`, and decorates it with `@jax.jit`. Arguments
    the body needs as Python values (shapes such as `jnp.zeros(n)`, `range(n)`,
    `if` conditions, slice bounds) become `static_argnames`.

    ## Why is this bad?
    Without `jit`, JAX dispatches every operation on its own, from Python, one
    at a time. Compiled, the whole function runs as one fused XLA program.
    Measured on a 2-core CPU: an MLP training step went 4-5x faster, a chain of
    small elementwise operations 13-24x.

    ## Fix safety
    The fix is **safe** when autoopt proves the function pure: no `print`, I/O,
    logging, global or argument mutation, host random numbers (`np.random`,
    `random`), `self` state or calls to code it cannot see; no Python control
    flow on traced values; and every static argument receives a hashable
    constant at every call site. It is **unsafe** when a static argument's value
    cannot be proven constant. There is **no fix** (the finding explains why)
    when the function is impure, branches in Python on an array, returns a
    Python value, or a static argument changes on every call (it would compile
    again on every call). A function handed to pickling or multiprocessing keeps
    its plain definition and is wrapped at the loop instead. Results agree with
    the original within float tolerance: XLA fuses and reorders float
    operations, so jitted code is not bit-identical.
    """

    id = "AO101"
    name = "missing-jit"
    summary = "Pure array function called repeatedly without jax.jit"
    fixes = "adds `@jax.jit` (with `static_argnames`) to pure array functions called in loops"

    VALID = examples.VALID
    INVALID = examples.INVALID

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        transformed = _transformed_names(ctx)
        for fn in ctx.graph.functions.values():
            sites = [s for s in ctx.graph.call_sites(fn) if s.in_loop and not _in_jit(ctx, s)]
            if sites and _is_candidate(ctx, fn, transformed):
                yield self._finding(ctx, fn, sites)

    def _finding(self, ctx: ModuleContext, fn: Function, sites: list[CallSite]) -> Finding:
        where = f"`{fn.name}` is called in a loop without `jax.jit`"
        reasons = purity.impurities(ctx, fn) + [
            f"reads `{n}`, which the module changes (jit would freeze it)"
            for n in purity.reads_module_state(ctx, fn)
        ]
        if reasons:
            return self._none(ctx, fn, f"{where}, but it is not pure: it {reasons[0]}")
        facts = tracing.analyse(ctx, fn)
        if facts.traced_control:
            return self._none(
                ctx, fn, f"{where}, but {facts.traced_control[0]}; use lax.cond/jnp.where"
            )
        if not _returns_array(fn, facts, ctx):
            return self._none(ctx, fn, f"{where}, but it returns a Python value, not an array")
        static = [p for p in fn.params if p in facts.static]
        problem, fix = _static_problem(ctx, fn, static)
        if problem:
            return self._none(ctx, fn, f"{where}, but {problem}")
        return self._fix(ctx, fn, sites, static, facts, fix, where)

    def _fix(self, ctx, fn, sites, static, facts, fix, where) -> Finding:
        if _escapes_to_pickling(ctx, fn):
            edits = _wrap_at_loops(ctx, fn, sites, static)
            how = "wrap it with `jax.jit` before the loop (it is also pickled, so keep `def` plain)"
        else:
            text, imports = jit_decorator(ctx, static)
            edits = [Replace(fn.node, add_decorator(ctx, text)), *imports]
            how = f"add `@{text}`"
        why = "; ".join(f"`{p}` is needed as a Python value ({facts.static[p]})" for p in static)
        note = f" ({why})" if why else ""
        if fix is Applicability.UNSAFE:
            note += "; cannot prove every call passes a hashable constant for the static arguments"
        title = "Add @jax.jit" + (f" (static: {', '.join(static)})" if static else "")
        return self.finding(
            ctx, fn.node.name, f"{where}: {how}{note}", fix, edits, target=fn.name, title=title
        )

    def _none(self, ctx: ModuleContext, fn: Function, message: str) -> Finding:
        return self.finding(ctx, fn.node.name, message, _NONE, target=fn.name)


def _transformed_names(ctx: ModuleContext) -> set[str]:
    """Function names wrapped by `jax.jit(f)` anywhere in the module."""
    names = set()
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            if ctx.is_jax(call.func, "jax.jit", "jax.pmap") and call.args:
                first = call.args[0].value
                if isinstance(first, cst.Name):
                    names.add(first.value)
    return names


def _is_candidate(ctx: ModuleContext, fn: Function, transformed: set[str]) -> bool:
    node = fn.node
    if fn.is_method or node.asynchronous is not None or node.decorators:
        return False
    if fn.name in transformed or not _uses_jax(ctx, fn):
        return False
    return not purity.is_generator(fn)


def _uses_jax(ctx: ModuleContext, fn: Function) -> bool:
    return any(
        (ctx.imports.bindings.get(name) or "").startswith("jax")
        for stmt in ctx.graph.scope_stmts(fn.qualname)
        for name in stmt.uses
    )


def _in_jit(ctx: ModuleContext, site: CallSite) -> bool:
    """A call inside a function that is itself jitted is compiled with it."""
    caller = ctx.graph.functions.get(site.stmt.scope)
    return caller is not None and any(
        "jit" in ctx.code(d.decorator) for d in caller.node.decorators
    )


def _returns_array(fn: Function, facts: tracing.TraceFacts, ctx: ModuleContext) -> bool:
    returns = [s.node for s in ctx.graph.scope_stmts(fn.qualname) if isinstance(s.node, cst.Return)]
    if not returns:
        return False
    for ret in returns:
        value = ret.value
        if value is None or isinstance(value, cst.FormattedString | cst.SimpleString):
            return False
        names = tracing.dynamic_names(value)
        calls_jax = "jax" in ctx.code(value) or any(
            (ctx.imports.bindings.get(n) or "").startswith("jax") for n in names
        )
        if not (names & facts.traced or calls_jax):
            return False
    return True


def _static_problem(
    ctx: ModuleContext, fn: Function, static: list[str]
) -> tuple[str, Applicability]:
    """Why the static arguments cannot work, or "" and how safe the fix is."""
    fix = Applicability.SAFE
    star = fn.node.params.star_arg
    if static and isinstance(star, cst.Param):
        return "its static arguments follow `*args`", _NONE
    for name in static:
        index = fn.params.index(name)
        for site in ctx.graph.call_sites(fn):
            expr = argument_for(site, index, name)
            if expr is None:
                fix = Applicability.UNSAFE
                continue
            kind = classify(ctx, site, expr)
            if kind is ArgKind.VARYING:
                return (
                    f"`{name}` must be static and changes on every iteration "
                    f"(`{ctx.code(expr)}`): jit would recompile on every call",
                    _NONE,
                )
            if kind is ArgKind.UNHASHABLE:
                return (
                    f"`{name}` must be static and receives an unhashable value; pass a tuple",
                    _NONE,
                )
            if kind is ArgKind.ARRAY:
                return f"`{name}` is needed as a Python value but receives an array", _NONE
            if kind is ArgKind.UNKNOWN:
                fix = Applicability.UNSAFE
    return "", fix


def _escapes_to_pickling(ctx: ModuleContext, fn: Function) -> bool:
    for stmt in ctx.graph.references(fn.name):
        for call in stmt.calls:
            passed = any(
                isinstance(a.value, cst.Name) and a.value.value == fn.name for a in call.args
            )
            if not passed:
                continue
            qual = ctx.qualify(call.func) or ""
            method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
            if qual.startswith(_PICKLING) or method in _PICKLING_METHODS:
                return True
    return False


def _wrap_at_loops(
    ctx: ModuleContext, fn: Function, sites: list[CallSite], static: list[str]
) -> list[Edit]:
    """`f_jit = jax.jit(f)` before each outermost loop, and the calls renamed."""
    name = fresh_name(ctx, f"{fn.name}_jit")
    text, imports = jit_call(ctx, fn.name, static)
    edits: list[Edit] = list(imports)
    anchors = []
    for site in sites:
        loop = ctx.graph.loops[site.stmt.loops[0]] if site.stmt.loops else None
        anchor = loop.node if loop is not None else site.stmt.anchor
        if anchor not in anchors:
            anchors.append(anchor)
        edits.append(Replace(site.call.func, lambda _node, n=name: cst.Name(n)))
    for anchor in anchors:
        edits.append(InsertBefore(anchor, (cst.parse_statement(f"{name} = {text}\n"),)))
    return edits
