"""Whether the values some names hold stay the same on every iteration of a loop.

A name is loop-invariant when nothing in the loop rebinds or mutates it, nor any
name that may share its object (a NumPy view, a list holding it), and the loop
passes it to no code that may change it in place (`rng.shuffle(x)`,
`np.copyto(x, ...)`, `out=x`, a function of the module that mutates its argument,
or code autoopt cannot see). A global is variant where the module's namespace or
module object may rebind it (`globals()["X"] = ...`: `analysis/facts/reflection.py`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import is_jit
from autoopt.analysis.core.exprs import base_name
from autoopt.analysis.core.graph import MODULE, Loop, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.project import project_function
from autoopt.analysis.facts import purity
from autoopt.analysis.facts.aliases import Sharing, scope_sharing
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Methods that read their receiver without changing it.
READ_ONLY_METHODS = jax_api.READ_METHODS | python_api.READ_METHODS
_MUTABLE = (Kind.HOST_ARRAY, Kind.CONTAINER, Kind.OBJECT, Kind.UNKNOWN)
_KNOWN_RECEIVERS = (Kind.ARRAY, Kind.HOST_ARRAY, Kind.CONTAINER, Kind.STRING, Kind.PYTREE)


def variant_reason(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """Why `names` may change during `loop`, or None when they are invariant."""
    graph = ctx.graph
    sharing = scope_sharing(ctx, loop.scope)
    held = sharing.component(names, weak=True)
    if loop.scope != MODULE:  # globals the loop reaches may alias each other at module level
        held = sharing.component(scope_sharing(ctx, MODULE).component(held, weak=True), weak=True)
    changed = sorted(names & graph.written_in_loop(loop.id) | held & _mutated_in(ctx, loop))
    if changed:
        return f"`{changed[0]}` changes inside the loop"
    for stmt in graph.loop_stmts(loop.id):
        for call in stmt.calls:
            reason = _call_may_write(ctx, stmt, call, held, sharing)
            if reason:
                return reason
    if loop.scope != MODULE:
        reason = _global_writer(ctx, loop, names)
        if reason:
            return reason
    return _reflected(ctx, loop, names) or _unseen_writer(ctx, loop, names)


def _reflected(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """A global among `names` that the module's namespace or module object may rebind."""
    fn = ctx.graph.functions.get(loop.scope)
    local: set[str] = set()
    if fn is not None:
        bound = {n for s in ctx.graph.scope_stmts(loop.scope) for n in s.defs}
        local = (set(fn.params) | bound) - fn.globals
    found = rebinding(ctx)
    for name in sorted(names - local):
        how = found.how(name)
        if how:
            return f"`{name}` may be rebound through {how}"
    return None


def _unseen_writer(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """Code autoopt cannot see, called in the loop, may change any mutable value it can
    reach without being handed it: module globals and names imported from other modules."""
    outside = _outside_names(ctx, loop, names)
    if not outside:
        return None
    for stmt in ctx.graph.loop_stmts(loop.id):
        for call in stmt.calls:
            if not _seen(ctx, stmt, call):
                return (
                    f"the loop calls `{ctx.code(call.func)}`, code autoopt cannot see, which "
                    f"may change `{sorted(outside)[0]}`"
                )
    return None


def _outside_names(ctx: ModuleContext, loop: Loop, names: set[str]) -> set[str]:
    """Mutable values among `names` that live outside the loop's function."""
    values = model(ctx)
    header = ctx.graph.stmts[loop.header]
    fn = ctx.graph.functions.get(loop.scope)
    if fn is None:
        outside = names  # module-level code: every name is a global
    else:
        local = set(fn.params) | {n for s in ctx.graph.scope_stmts(loop.scope) for n in s.defs}
        outside = names - local
    return {n for n in outside if values.name(header, n).kind in _MUTABLE}


def _seen(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    """JAX, NumPy, math and builtin calls, jitted and pure module functions, and
    methods of arrays and containers: code whose writes autoopt knows."""
    qual = ctx.qualify(call.func) or ""
    name = dotted(call.func) or ""
    if qual.startswith(("jax.", "numpy.", "math.")) or name in python_api.READ_ONLY_BUILTINS:
        return True
    if qual in overlays.JIT_SPELLINGS:
        return True  # building a framework's jit wrapper writes nothing
    if name in python_api.PURE_BUILTINS or name in {j.name for j in jitted_callables(ctx)}:
        return True
    func = call.func
    if type(func) is cst.Call and is_jit(ctx, func.func):
        return True  # a compiled call: pure array code
    if type(func) is cst.Attribute and not qual:
        return model(ctx).value_of(stmt, func.value).kind in _KNOWN_RECEIVERS
    fn = ctx.graph.resolve_function(name, stmt.scope) if name and "." not in name else None
    if fn is not None:
        return not any("cannot see" in r for r in purity.impurities(ctx, fn))
    found = project_function(ctx, qual) if qual else None
    return found is not None and not purity.impurities(*found)  # its module's globals too


def _mutated_in(ctx: ModuleContext, loop: Loop) -> set[str]:
    """Objects changed in place in the loop (`a[i] = v`, `a.append(v)`, `a += v`)."""
    changed: set[str] = set()
    for stmt in ctx.graph.loop_stmts(loop.id):
        changed |= stmt.mutates
        if type(stmt.node) is cst.AugAssign:
            changed |= stmt.defs
    return changed


def _call_may_write(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, held: set[str], sharing: Sharing
) -> str | None:
    func = call.func
    receiver = base_name(func.value) if type(func) is cst.Attribute else None
    if receiver in held and func.attr.value not in READ_ONLY_METHODS:  # type: ignore[attr-defined]  # receiver: an Attribute
        return f"`{ctx.code(call)}` may change `{receiver}` in place"
    passed = {n for a in call.args for n in sharing.shares(a.value).names()} & held
    if not passed or _read_only_callee(ctx, stmt, call):
        return None
    return f"the loop passes `{sorted(passed)[0]}` to `{ctx.code(func)}`, which may change it"


def _read_only_callee(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    qual = ctx.qualify(call.func) or ""
    name = dotted(call.func) or ""
    if any(a.keyword is not None and a.keyword.value == "out" for a in call.args):
        return False
    if qual.startswith("jax.") or name in {j.name for j in jitted_callables(ctx)}:
        return True
    if qual in overlays.JIT_SPELLINGS:
        return True  # `eqx.filter_jit(f)`, like `jax.jit(f)`, wraps `f` without changing it
    if qual.startswith("numpy."):
        return qual not in numpy_api.MUTATING_FUNCTIONS and not qual.startswith("numpy.random.")
    if name in python_api.READ_ONLY_BUILTINS or name in python_api.PURE_BUILTINS:
        return True
    fn = ctx.graph.resolve_function(name, stmt.scope) if name and "." not in name else None
    return fn is not None and not purity.impurities(ctx, fn)


def _global_writer(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """A module function that rebinds or mutates one of the (global) `names`."""
    fn = ctx.graph.functions.get(loop.scope)
    declared = fn.globals | fn.nonlocals if fn else set()
    local = {n for s in ctx.graph.scope_stmts(loop.scope) for n in s.defs} - declared
    outer = names - local - set(fn.params if fn else ())
    for other in ctx.graph.functions.values():
        for stmt in ctx.graph.scope_stmts(other.qualname):
            changed = stmt.mutates | (stmt.defs & other.globals)
            if outer & changed:
                return f"`{other.name}` changes `{sorted(outer & changed)[0]}`"
    return None
