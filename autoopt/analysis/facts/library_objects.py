"""Module globals proven to hold one library object, whose methods an overlay lists.

`optimizer = optax.adam(1e-3)` binds an optax `GradientTransformation`, a pair of pure
functions; `optimizer.update(grads, state, params)` reads like `dict.update`, so the
dataflow graph marks it as changing `optimizer`. A module-level name is proven to hold
the object of class `C` (`library_object`) only when all of these hold:

- it is bound exactly once in the module, by `name = f(...)` at module level outside
  any loop, where `f` qualifies to a constructor an overlay lists
  (`overlays.CONSTRUCTED_CLASSES`: `optax.adam` -> `optax.GradientTransformation`);
- no function writes it through `global` (no other binding of the module's name);
- nothing rebinds it through the module's namespace or module object
  (`analysis/facts/reflection.py`);
- every statement the graph marks as changing the global does so only by calling it
  `name.m(...)` with `C.m` in `overlays.PURE_METHODS`: no `name.x = v`, `name[i] = v`,
  `np.copyto(name, ...)`, `out=name`, and no other method the graph reads as mutating.

Anything unproven is None, and the name keeps every reason it had to be impure.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import mutated_names, mutating_call_target
from autoopt.analysis.core.graph import MODULE, Function, Stmt, written_arguments
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.values.library import constructed_class


def library_object(ctx: ModuleContext, name: str) -> str | None:
    """The class of the library object the module-level `name` is proven to hold."""
    return ctx.per_module(_library_objects).get(name)


def pure_method(ctx: ModuleContext, fn: Function | None, call_name: str) -> bool:
    """Whether `call_name` (`optimizer.update`), read in `fn` (None: at module level),
    calls a pure method of a proven library object held by the module global."""
    head, _, method = call_name.partition(".")
    if not method or "." in method or not refers_to_global(ctx, fn, head):
        return False
    cls = library_object(ctx, head)
    return cls is not None and f"{cls}.{method}" in overlays.PURE_METHODS


def refers_to_global(ctx: ModuleContext, fn: Function | None, name: str) -> bool:
    """Whether `name`, read in `fn`, is the module's global: no enclosing function binds
    it (unless through `global`)."""
    while fn is not None:
        if name in fn.globals:
            return True
        bound = set(fn.params) | {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs}
        if name in bound or name in fn.nonlocals:
            return False
        fn = enclosing_function(ctx, fn.scope)
    return True


def enclosing_function(ctx: ModuleContext, scope: str) -> Function | None:
    """The innermost function around `scope` (class bodies skipped), None at module level."""
    while scope and scope != MODULE:
        found = ctx.graph.functions.get(scope)
        if found is not None:
            return found
        scope = scope.rpartition(".")[0]
    return None


def _library_objects(ctx: ModuleContext) -> dict[str, str]:
    graph = ctx.graph
    found: dict[str, str] = {}
    for stmt in graph.scope_stmts(MODULE):
        node = stmt.node
        if stmt.loops or type(node) is not cst.Assign or type(node.value) is not cst.Call:
            continue
        if len(node.targets) != 1 or type(node.targets[0].target) is not cst.Name:
            continue
        cls = constructed_class(ctx.qualify, node.value)
        if cls is not None:
            found[node.targets[0].target.value] = cls
    rebound = set(rebinding(ctx).names)
    for name in list(found):
        defs = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
        written = any(
            name in fn.globals and any(name in s.defs for s in graph.scope_stmts(fn.qualname))
            for fn in graph.functions.values()
        )
        if len(defs) != 1 or written or name in rebound:
            del found[name]
            continue
        for stmt in graph.stmts:
            if name in stmt.mutates and not _only_pure_calls(ctx, stmt, name, found[name]):
                del found[name]
                break
    return found


def _only_pure_calls(ctx: ModuleContext, stmt: Stmt, name: str, cls: str) -> bool:
    """Whether `stmt` changes the global `name` at most by calling its pure methods (a
    statement about another variable of that name changes nothing of it)."""
    fn = enclosing_function(ctx, stmt.scope)
    return not refers_to_global(ctx, fn, name) or pure_calls_only(ctx, stmt, name, cls)


def pure_calls_only(ctx: ModuleContext, stmt: Stmt, name: str, cls: str) -> bool:
    """Whether `stmt` changes the object of class `cls` that `name` holds at most by
    calling its pure methods (`overlays.PURE_METHODS`)."""
    node = stmt.node
    if type(node) is cst.Assign:
        if any(name in set(mutated_names(t.target)) for t in node.targets):
            return False
    elif type(node) not in (cst.Expr, cst.Return):
        return False
    for call in stmt.calls:
        if name in written_arguments(ctx.graph.imports, call):
            return False
        if mutating_call_target(call) == name:
            func = call.func
            if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
                return False  # `name.inner.update(...)`: not a method of the object
            if f"{cls}.{func.attr.value}" not in overlays.PURE_METHODS:
                return False
    return True
