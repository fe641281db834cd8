"""AO102 jit-in-loop."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis.plans.hoist_reach import skipped
from autoopt.analysis.semantic import (
    Kind,
    Loop,
    ModuleContext,
    Stmt,
    overlays,
    read_names,
    semantic,
    walk,
)
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace
from autoopt.rewrite.jit import fresh_name
from autoopt.rules.base import Rule
from autoopt.rules.loop_owner import step_owned

#: The jits whose wrapper is built here: JAX's and the frameworks' (`eqx.filter_jit`,
#: `nnx.jit`), whose wrappers keep their compilations the same way.
_TRANSFORMS = tuple(sorted(overlays.CACHING_JITS))


class JitInLoop(Rule):
    """
    ## What it does
    Finds `jax.jit(f)` (or a framework's `eqx.filter_jit(f)`, `nnx.jit(f)`) evaluated
    inside a loop and builds the jitted function once, before the loop.

    ## Why is this bad?
    Every `jax.jit(f)` creates a new wrapper that must look up (and, for a
    function defined in the loop, redo) the trace and compilation on its first
    call. Built once, the compiled program is reused on every iteration and the
    loop pays only the dispatch.

    ## Fix safety
    **Safe** when the hoisted expression evaluates to the same thing on every
    iteration (building a jit wrapper has no side effects); **unsafe** when the
    jitted callable reads an object's state (a bound method `obj.step`,
    `partial(f, dt=obj.dt)`), which jit traces once and freezes; **no fix** when
    the function is defined in the loop, changes during it, or its options change
    per iteration: define it once outside the loop and pass the changing values as
    arguments. A jit the original may not build when the loop is reached (under `if`,
    in a `try:`, in a loop that may run zero times) is **unsafe** unless it wraps a
    function with no options: built before the loop, `jax.jit(None)` or options the
    function rejects raise where the original never ran it.

    - nothing `jax.jit(...)` reads (the function, the options) changes in the loop,
      nor in a function it calls: `analysis/facts/invariance.py`
    - the callable is a module function, not an object's state: `analysis/values/model.py`
    - building it before the loop cannot raise where the original would not build it: it
      wraps a function with no options, or it runs on the first iteration of a loop proven
      to run, nothing before it able to skip it: `analysis/plans/hoist_reach.py`
    - one owner per loop, the statements of an AO103 step or an AO501 `vmap` are
      theirs: `rules/loop_owner.py`
    """

    id = "AO102"
    name = "jit-in-loop"
    summary = "jax.jit(f) built inside a loop"
    severity = "warning"
    fixes = "builds `jax.jit(f)` once, before the loop"

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        for stmt in ctx.graph.stmts:
            if not stmt.loops or step_owned(ctx, stmt):
                continue
            for call in stmt.calls:
                if ctx.is_jax(call.func, *_TRANSFORMS):
                    finding = self._finding(ctx, stmt, call)
                    if finding is not None:
                        yield finding

    def _finding(self, ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> Finding | None:
        graph = ctx.graph
        reads = {n.value for n in read_names(call)}
        inner = graph.loops[stmt.loops[-1]]
        line = ctx.span(inner.node).line
        where = f"`{ctx.code(call)}` is built on every iteration of the loop at line {line}"
        if reads & _functions_defined_in(ctx, stmt, inner):
            return self._none(ctx, call, f"{where}; the function is defined inside the loop")
        variant = reads & graph.written_in_loop(inner.id)
        if variant and _has_lambda(call):
            names = ", ".join(f"`{n}`" for n in sorted(variant))
            return self._none(
                ctx, call, f"{where}; its lambda captures {names}, which changes inside the loop"
            )
        if variant:
            return None  # a different function on purpose, e.g. `for fn in fns: jax.jit(fn)`
        changed = semantic(ctx).variant_reason(inner, reads - set(ctx.imports.bindings))
        if changed:
            return self._none(ctx, call, f"{where}; {changed}")
        loop = _outermost_invariant(ctx, stmt, reads)
        edits = _hoist(ctx, stmt, call, loop)
        title = "Build the jitted function once, before the loop"
        message = f"{where}: build it once before the loop"
        doubt = _state_doubt(ctx, stmt, call) or _reach_doubt(ctx, stmt, call, loop)
        fix = Applicability.UNSAFE if doubt else Applicability.SAFE
        message += f"; unsafe: {doubt}" if doubt else ""
        return self.finding(ctx, call, message, fix, edits, title=title)

    def _none(self, ctx: ModuleContext, call: cst.Call, message: str) -> Finding:
        advice = (
            "; every iteration compiles again: define the function once, outside the loop,"
            " and pass the changing values as arguments"
        )
        return self.finding(ctx, call, message + advice, Applicability.NONE)


def _state_doubt(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> str:
    """Built once, jit traces the function once: state it reads through `self`, an
    object's attribute or a `partial` argument would be frozen at its first value."""
    values = semantic(ctx)
    for node in walk(call.args[0].value if call.args else call):
        if type(node) is cst.Attribute and ctx.qualify(node) is None:
            base = values.value_of(stmt, node.value)
            if base.kind not in (Kind.MODULE, Kind.ARRAY, Kind.PYTREE):
                return (
                    f"`{ctx.code(node)}` reads an attribute of `{ctx.code(node.value)}` "
                    f"({base.kind.value}), which jit would freeze at its first value"
                )
    return ""


def _reach_doubt(ctx: ModuleContext, stmt: Stmt, call: cst.Call, loop: Loop) -> str:
    """Built before the loop, the jit runs where the original may not build it; it raises
    there unless it wraps a function and has no options (which jit checks against it)."""
    args = call.args
    if len(args) == 1 and semantic(ctx).value_of(stmt, args[0].value).kind is Kind.CALLABLE:
        return ""
    reason = skipped(ctx, loop, call, f"`{ctx.code(call)}`")
    if reason is None:
        return ""
    return f"{reason}; before the loop it may raise (not a function, or options it rejects)"


def _functions_defined_in(ctx: ModuleContext, stmt: Stmt, loop: Loop) -> set[str]:
    return {
        name
        for s in ctx.graph.scope_stmts(stmt.scope)
        if type(s.node) is cst.FunctionDef and loop.id in s.loops
        for name in s.defs
    }


def _has_lambda(node: cst.CSTNode) -> bool:
    return any(type(n) is cst.Lambda for n in walk(node))


def _outermost_invariant(ctx: ModuleContext, stmt: Stmt, reads: set[str]) -> Loop:
    """The outermost enclosing loop in which nothing `reads` is written."""
    best = ctx.graph.loops[stmt.loops[-1]]
    for loop_id in reversed(stmt.loops[:-1]):
        if reads & ctx.graph.written_in_loop(loop_id):
            break
        best = ctx.graph.loops[loop_id]
    return best


def _hoist(ctx: ModuleContext, stmt: Stmt, call: cst.Call, loop: Loop) -> list[Edit]:
    node = stmt.node
    is_whole_assignment = (
        type(node) is cst.Assign
        and node.value is call
        and len(node.targets) == 1
        and type(node.targets[0].target) is cst.Name
        and stmt.alone
        and sum(stmt.anchor is s.anchor for s in ctx.graph.stmts) == 1
        and _movable_binding(ctx, stmt, node.targets[0].target.value, loop)
    )
    if is_whole_assignment:
        moved = stmt.anchor
        return [
            Replace(moved, lambda _n: cst.RemovalSentinel.REMOVE),
            InsertBefore(loop.node, (moved,)),
        ]
    first = call.args[0].value if call.args else call
    base = first.attr.value if type(first) is cst.Attribute else getattr(first, "value", "jitted")
    name = fresh_name(ctx, f"{base}_jit" if isinstance(base, str) else "jitted")
    assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], call)])
    return [InsertBefore(loop.node, (assign,)), Replace(call, lambda _n: cst.Name(name))]


def _movable_binding(ctx: ModuleContext, stmt: Stmt, name: str, loop: Loop) -> bool:
    """Moving `name = jax.jit(f)` above the loop changes nothing observable: the name
    is bound nowhere else in the scope and not read in the loop before this point."""
    others = [s for s in ctx.graph.scope_stmts(stmt.scope) if name in s.defs and s is not stmt]
    in_loop = ctx.graph.loop_stmts(loop.id)
    read_before = any(name in s.uses and s.id < stmt.id for s in in_loop)
    return not others and not read_before
