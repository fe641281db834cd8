"""Purity: would tracing a function once and replaying it keep what it does?

`jax.jit` runs the Python body once, at trace time. Anything that is not a pure
array computation (printing, I/O, logging, writing globals, mutating arguments
or closed-over containers, host random numbers, reading `self` or calling code
autoopt cannot see) would happen once and then be frozen or skipped.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import MODULE, Function
from autoopt.analysis.names import dotted
from autoopt.analysis.walk import walk

#: Builtins that compute a value from their arguments and touch nothing else.
PURE_BUILTINS = frozenset(
    {
        "abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "filter",
        "float", "frozenset", "getattr", "hasattr", "int", "isinstance", "issubclass",
        "len", "list", "map", "max", "min", "pow", "range", "reversed", "round", "set",
        "slice", "sorted", "str", "sum", "tuple", "type", "zip",
    }
)  # fmt: skip

_IO_BUILTINS = {"print": "prints", "open": "opens a file", "input": "reads input"}

#: Module prefixes whose calls are side effects or host randomness.
_IMPURE_MODULES = {
    "numpy.random": "draws host random numbers with numpy.random",
    "random": "draws host random numbers with the random module",
    "logging": "logs",
    "time": "reads the clock",
    "os": "calls the operating system",
    "sys": "touches interpreter state",
    "pickle": "does I/O",
    "json": "does I/O",
    "subprocess": "starts processes",
    "shutil": "touches files",
    "pathlib": "touches files",
}

#: Public, functional JAX namespaces and transforms; other `jax.*` (e.g. `jax._src`
#: internals, `jax.experimental` host callbacks) is code autoopt cannot vouch for.
_PURE_PREFIXES = (
    "jax.numpy.", "jax.lax.", "jax.nn.", "jax.random.", "jax.scipy.", "jax.tree_util.",
    "jax.tree.", "jax.debug.", "jax.image.", "jax.ops.", "jax.dtypes.",
    "math.", "functools.partial", "operator.", "numpy.",
)  # fmt: skip
_PURE_JAX = frozenset(
    {
        "jax.jit", "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jvp", "jax.vjp",
        "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.checkpoint", "jax.remat",
        "jax.custom_jvp", "jax.custom_vjp", "jax.eval_shape", "jax.named_call",
        "jax.block_until_ready", "jax.device_put", "jax.ShapeDtypeStruct",
    }
)  # fmt: skip
_IMPURE_JAX = {"jax.device_get": "copies to the host", "jax.debug.breakpoint": "stops"}


def is_generator(fn: Function) -> bool:
    """Whether the function body yields (nested functions aside)."""
    nested = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
    return any(
        isinstance(node, cst.Yield) for node in walk(fn.node.body, lambda n: isinstance(n, nested))
    )


def impurities(ctx: ModuleContext, fn: Function, _seen: frozenset[str] = frozenset()) -> list[str]:
    """Why `fn` is not pure, one reason each; empty when autoopt proves it pure."""
    graph = ctx.graph
    seen = _seen | {fn.qualname}
    local = {name for s in graph.scope_stmts(fn.qualname) for name in s.defs} | set(fn.params)
    reasons: list[str] = []
    for name in sorted(fn.globals | fn.nonlocals):
        if any(name in s.defs | s.mutates for s in graph.scope_stmts(fn.qualname)):
            reasons.append(f"writes the global `{name}`")
    for stmt in graph.scope_stmts(fn.qualname):
        for name in sorted(stmt.mutates):
            if name in fn.params:
                reasons.append(f"mutates its argument `{name}`")
            elif name not in local or name in fn.globals:
                reasons.append(f"mutates `{name}`, which lives outside the function")
        if fn.is_method and "self" in stmt.uses:
            reasons.append("reads `self` state, which jit would freeze at trace time")
        for call in stmt.calls:
            reason = _call_impurity(ctx, fn, call, local, seen)
            if reason:
                reasons.append(reason)
    return list(dict.fromkeys(reasons))


def _call_impurity(
    ctx: ModuleContext, fn: Function, call: cst.Call, local: set[str], seen: frozenset[str]
) -> str | None:
    name = dotted(call.func)
    qual = ctx.qualify(call.func)
    if qual is not None:
        return _qualified_impurity(qual)
    if name is None:
        return None  # a call on a computed value, e.g. `x.at[i].set(v)` or `f(a)(b)`
    head = name.split(".")[0]
    if name in _IO_BUILTINS:
        return f"{_IO_BUILTINS[name]} (`{name}` runs once, at trace time; use jax.debug.print)"
    if "." not in name:
        return _bare_call_impurity(ctx, fn, name, local, seen)
    if head in local:
        return None  # a method of a local value (an array, a dict, a pytree)
    if head in {"logger", "log", "logging"}:
        return f"logs (`{name}`)"
    return f"calls `{name}`, code autoopt cannot see"


def _qualified_impurity(qual: str) -> str | None:
    if qual in _IMPURE_JAX:
        return f"{_IMPURE_JAX[qual]} (`{qual}`)"
    for prefix, reason in _IMPURE_MODULES.items():
        if qual == prefix or qual.startswith(prefix + "."):
            return f"{reason} (`{qual}`)"
    if qual.startswith(_PURE_PREFIXES) or qual in _PURE_JAX or qual in ("jax", "numpy"):
        return None
    return f"calls `{qual}`, code autoopt cannot see"


def _bare_call_impurity(
    ctx: ModuleContext, fn: Function, name: str, local: set[str], seen: frozenset[str]
) -> str | None:
    target = ctx.graph.resolve_function(name, fn.qualname)
    if target is not None:
        if target.qualname in seen:
            return None
        inner = impurities(ctx, target, seen)
        return f"calls `{name}`, which {inner[0]}" if inner else None
    if name in fn.params:
        return f"calls its argument `{name}`, code autoopt cannot see"
    if name in local:
        return (
            None
            if _bound_to_transform(ctx, fn, name)
            else f"calls `{name}`, code autoopt cannot see"
        )
    if name in PURE_BUILTINS:
        return None
    if name in ctx.graph.classes:
        return None  # constructing a (data)class defined here, e.g. a NamedTuple state
    return f"calls `{name}`, code autoopt cannot see"


def _bound_to_transform(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """`g = jax.grad(loss)` or `f = lambda x: ...` inside the function."""
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        if name in stmt.defs and isinstance(stmt.node, cst.Assign):
            value = stmt.node.value
            if isinstance(value, cst.Lambda):
                return True
            if isinstance(value, cst.Call) and (ctx.qualify(value.func) or "").startswith("jax."):
                return True
        if name in stmt.defs and isinstance(stmt.node, cst.FunctionDef):
            nested = ctx.graph.functions.get(f"{fn.qualname}.{name}")
            return nested is not None and not impurities(ctx, nested)
    return False


def reads_module_state(ctx: ModuleContext, fn: Function) -> list[str]:
    """Module-level names the function reads that the program rebinds or mutates later."""
    graph = ctx.graph
    local = {n for s in graph.scope_stmts(fn.qualname) for n in s.defs} | set(fn.params)
    reads = {n for s in graph.scope_stmts(fn.qualname) for n in s.uses} - local
    module_defs: dict[str, int] = {}
    for stmt in graph.scope_stmts(MODULE):
        for name in stmt.defs:
            module_defs[name] = module_defs.get(name, 0) + 1
    changed = {
        name
        for other in graph.functions.values()
        for stmt in graph.scope_stmts(other.qualname)
        for name in (stmt.mutates | (stmt.defs & other.globals))
    }
    return sorted(n for n in reads if module_defs.get(n, 0) > 1 or n in changed)
