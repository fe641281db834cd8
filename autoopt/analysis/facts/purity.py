"""Purity: would tracing a function once and replaying it keep what it does?

`jax.jit` runs the Python body once, at trace time. Anything that is not a pure
array computation (printing, I/O, logging, writing globals, mutating arguments
or closed-over containers, host random numbers, reading `self` or calling code
autoopt cannot see) would happen once and then be frozen or skipped.

A module-level name the program changes after binding it (`changed_module_names`)
is one jit would freeze: bound again, written through `global`, mutated, or rebound
through the module's namespace or module object (`globals()["GAIN"] = ...`,
`setattr(sys.modules[__name__], "DT", ...)`, `mod.X = ...` in another file of the
project: `analysis/facts/reflection.py`).

A module global proven to hold a library object (`optimizer = optax.adam(1e-3)`,
`analysis/facts/library_objects.py`) is neither changed nor impure to call through the
methods its overlay lists pure (`optimizer.update(grads, state, params)`); any other
method of it, or a receiver not so proven, keeps its reason. So is an argument or a local
the value model proves holds an immutable one (`overlays.STATIC_CLASSES`: an optax
optimizer, which jit keeps static).

A call's callee is proven, never assumed: a function of the project (followed), a
library function the overlays list pure, the `__call__` or method of a class of the
module built in place (`Block(w)(h)`, followed with its `self` holding what the
constructor was given, its `__init__` too), or the function a JAX transform or a
partial wraps (`jax.jit(f)(x)`), or, on an nnx module object a trace is given
(`facts/nnx_instances.py`), its class's methods, its fields' objects and the factory
closures its fields hold. What any other call returns (`eqx.combine(p, s)(h)`,
`layer = jax.tree.map(cast, layer); layer(h)`) is code autoopt cannot see.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import (
    bound_names,
    calls_in,
    evaluated_exprs,
    is_at_update,
    is_literal,
    mutated_names,
    mutating_call_target,
    param_names,
    scope_nodes,
)
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.project import project_function
from autoopt.analysis.facts.closure_factories import closure_layer, field_closure
from autoopt.analysis.facts.closures import factory_closure
from autoopt.analysis.facts.library_objects import (
    library_object,
    pure_calls_only,
    pure_method,
    refers_to_global,
)
from autoopt.analysis.facts.module_structure import class_methods
from autoopt.analysis.facts.nnx_instances import (
    field_instance,
    is_layer,
    method_problem,
    returns_array,
)
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import haiku as haiku_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.layers import held_call
from autoopt.analysis.values.model import model
from autoopt.analysis.values.shapes import assigned_value

_METHOD_SAFE_KINDS = (
    Kind.ARRAY, Kind.HOST_ARRAY, Kind.PYTREE, Kind.CONTAINER, Kind.STRING, Kind.SHAPE,
)  # fmt: skip


#: Methods of an argument of a kind not proven that read an array or a container
#: (`x.sum()`, `params.items()`): the argument's own premises judge what it is. Any other
#: method (`layer.forward(h)`) may run code autoopt cannot see.
_ARGUMENT_METHODS = (
    jax_api.ARRAY_METHODS | jax_api.READ_METHODS | jax_api.VALUE_METHODS
    | python_api.READ_METHODS
)  # fmt: skip
#: Methods that set up the instance they are run on (their writes to `self` are its own).
_CONSTRUCTORS = ("__init__", "__post_init__")
#: Calls whose result runs their first argument: `functools.partial(f, w)(x)` is `f(w, x)`.
_PARTIALS = frozenset({"functools.partial", "jax.tree_util.Partial"})
#: What a library call's result must be for autoopt to know its methods (arrays, strings).
_DATA_KINDS = (Kind.ARRAY, Kind.HOST_ARRAY, Kind.STRING, Kind.SHAPE)

#: How a reason ends where the impurity is a call autoopt cannot see into: unproven, not
#: shown impure.
UNSEEN = "code autoopt cannot see"


#: How a reason reads where a local changed in place may be an object from outside.
SHARED_CHANGE = "in place, which may hold"


def unseen(reason: str) -> bool:
    """Whether `reason` (an impurity, or a problem quoting one) is a call autoopt cannot
    see into: a premise unproven rather than one that fails."""
    return reason.endswith(UNSEEN)


def impurities(ctx: ModuleContext, fn: Function, _seen: frozenset[str] = frozenset()) -> list[str]:
    """Why `fn` is not pure, one reason each; empty when autoopt proves it pure (once per
    function; a call inside a cycle of callees, `_seen`, is answered afresh)."""
    if not _seen:
        return ctx.per_function(_impurities, fn)
    return _impurities(ctx, fn, _seen)


#: Parameters of a function -> the instance each is proven to hold where a trace runs
#: it (`facts/nnx_instances.py`): a call of it runs that instance's code, followed.
Instances = tuple[tuple[str, str], ...]


def impurities_except(
    ctx: ModuleContext,
    fn: Function,
    exempt: frozenset[int],
    modules: frozenset[str],
    instances: Instances = (),
) -> list[str]:
    """`impurities` of `fn` but for the calls in `exempt` (by identity) and, in their
    statements, the changes of the names in `modules`: the caller's proof covers them
    (`plans/nnx_step.py`: calls that change nnx modules in place). `instances`: what
    parameters of `fn` hold, whose calls are followed (`_instance_call`)."""
    return _impurities(ctx, fn, exempt=exempt, modules=modules, instances=instances)


def _impurities(
    ctx: ModuleContext,
    fn: Function,
    outer: frozenset[str] = frozenset(),
    exempt: frozenset[int] = frozenset(),
    modules: frozenset[str] = frozenset(),
    fresh: bool = False,
    instances: Instances = (),
) -> list[str]:
    """`fresh`: `fn` is a method run on an instance built in place (`Block(w)(h)`), whose
    `self` holds only what its constructor was given at that call, or (`instances` naming
    `self`) on a module object a trace is given. `instances`: parameters proven to hold
    an nnx instance where the trace runs `fn` (those `fn` binds again aside)."""
    graph = ctx.graph
    seen = outer | {_key(ctx, fn)}
    local = _bound_in(ctx, fn)
    instances = _kept_instances(ctx, fn, instances)
    shared = _shared_changes(ctx, fn, bool(instances))
    reasons = shared if instances else []  # a module's Python state: the first premise
    for name in sorted(fn.globals | fn.nonlocals):
        if any(name in s.defs | s.mutates for s in graph.scope_stmts(fn.qualname)):
            reasons.append(f"writes the global `{name}`")
    for stmt in graph.scope_stmts(fn.qualname):
        changed = _changed_through(stmt, exempt, modules)
        for name in sorted(stmt.mutates - changed):
            if fresh and name == "self" and fn.name in _CONSTRUCTORS:
                continue  # a constructor setting up the instance it builds
            if name == "self" and "self" in dict(instances):
                reasons.append("changes attributes of `self`, Python state a trace changes once")
            elif name in fn.params:
                if not _static_receiver(ctx, stmt, name):
                    reasons.append(_argument_change(ctx, stmt, name))
            elif name not in local or name in fn.globals:
                if library_object(ctx, name) and refers_to_global(ctx, fn, name):
                    continue  # every change of it is a pure method call (its proof)
                reasons.append(f"mutates `{name}`, which lives outside the function")
        if fn.is_method and "self" in stmt.uses and not fresh:
            reasons.append("reads `self` state, which jit would freeze at trace time")
        for call in (c for c in _all_calls(stmt) if id(c) not in exempt):
            reason = _self_call_impurity(ctx, fn, call, seen, instances) if fresh else None
            if reason is None:
                reason = _call_impurity(ctx, fn, stmt, call, local, seen, instances)
            if reason:
                reasons.append(reason)
    return list(dict.fromkeys(reasons + shared))


def _changed_through(stmt: Stmt, exempt: frozenset[int], modules: frozenset[str]) -> set[str]:
    """The names of `modules` that `stmt` changes through its exempt calls alone: none
    where it makes none, or assigns into one (`model.w.value = f(model)`)."""
    if not any(id(c) in exempt for c in stmt.calls):
        return set()
    node = stmt.node
    targets: list[cst.BaseExpression] = []
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
        targets = [node.target]
    return set(modules) - {n for t in targets for n in mutated_names(t)}


def _call_impurity(
    ctx: ModuleContext,
    fn: Function,
    stmt: Stmt,
    call: cst.Call,
    local: set[str],
    seen: frozenset[str],
    instances: Instances = (),
) -> str | None:
    name = dotted(call.func)
    qual = ctx.qualify(call.func)
    if qual is not None:
        handed = _handed_impurity(ctx, fn, call, qual, seen)
        if handed:
            return handed
        if qual in haiku_api.LAYERS:
            return _layer_arguments_impurity(ctx, fn, stmt, call, seen)
        project = _project_impurity(ctx, qual, seen)
        return _qualified_impurity(qual) if project is None else project or None
    if name is None:
        return _computed_callee_impurity(ctx, fn, stmt, call, seen, instances)
    head = name.split(".")[0]
    if name in python_api.IO_BUILTINS:
        return (
            f"{python_api.IO_BUILTINS[name]} (`{name}` runs once, at trace time;"
            " use jax.debug.print)"
        )
    if "." not in name:
        return _bare_call_impurity(ctx, fn, name, local, seen, call, instances)
    held = dict(instances).get(head)
    if held is not None and name.count(".") == 1 and not is_layer(held):
        return _instance_attribute_call(ctx, held, name.partition(".")[2], seen, head) or None
    if head in local:
        return _method_impurity(ctx, stmt, name, head)
    if pure_method(ctx, fn, name):
        return None  # `optimizer.update(...)` on a proven optax optimizer
    if held_call(ctx, fn.qualname, call):
        return None  # `model.apply(...)` of a linen layer the global holds while the loop runs
    transformed = _transformed_method_impurity(ctx, fn, name, seen)
    if transformed is not None:
        return transformed or None
    if head in {"logger", "log", "logging"}:
        return f"logs (`{name}`)"
    return f"calls `{name}`, code autoopt cannot see"


#: Calls that run a Python function they are given each time they are called eagerly,
#: and once when traced: transforms other than the jits (compiled, an eager call of
#: those traces once too) and tree maps.
_RETRACING = (
    (jax_api.TRACING_TRANSFORMS - jax_api.JIT_SPELLINGS)
    | jax_api.TREE_MAPS
    | (nnx_api.TRANSFORMS - nnx_api.JIT_LIKE)
)


def _handed_impurity(
    ctx: ModuleContext, fn: Function, call: cst.Call, qual: str, seen: frozenset[str]
) -> str | None:
    """Why a module function `call` hands to a transform or tree map (`jax.grad(loss)`)
    is shown impure (a print, a write): run eagerly, it runs on every call; traced, once.
    Its calls of code autoopt cannot see are not judged here (the callers' proofs of
    such steps predate this check; `plans/nnx_step.py` asks them)."""
    if qual not in _RETRACING:
        return None
    for arg in call.args:
        value = arg.value
        if type(value) is not cst.Name:
            continue
        target = ctx.graph.resolve_function(value.value, fn.qualname)
        if target is None or _key(ctx, target) in seen:
            continue
        inner = [r for r in impurities(ctx, target, seen | {_key(ctx, fn)}) if not unseen(r)]
        if inner:
            return f"hands `{value.value}` to `{qual}`, which runs it: it {inner[0]}"
    return None


def _argument_change(ctx: ModuleContext, stmt: Stmt, name: str) -> str:
    """How `stmt` changes the argument `name`: a method call on an argument of a kind
    not proven (`opt.update(...)`, which only reads like `dict.update`) is unproven, not
    shown to change it."""
    method = next((c for c in stmt.calls if mutating_call_target(c) == name), None)
    func = method.func if method is not None else None
    assigned = type(stmt.node) is cst.Assign and any(
        name in set(mutated_names(t.target)) for t in stmt.node.targets
    )
    known = model(ctx).name(stmt, name).kind is not Kind.UNKNOWN
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name or assigned or known:
        return f"mutates its argument `{name}`"
    return f"calls `{name}.{func.attr.value}`, which may change its argument `{name}`: {UNSEEN}"


def _static_receiver(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name` holds, where `stmt` reads it, an immutable library object (an optax
    optimizer, `overlays.STATIC_CLASSES`) that `stmt` only calls pure methods of: the
    graph's mutation of it is none."""
    value = model(ctx).name(stmt, name)
    cls = value.detail if value.kind is Kind.OBJECT else None
    return cls in overlays.STATIC_CLASSES and pure_calls_only(ctx, stmt, name, cls)


def _key(ctx: ModuleContext, fn: Function) -> str:
    """A function's identity across the files of a project."""
    return f"{ctx.path}::{fn.qualname}"


def _project_impurity(ctx: ModuleContext, qual: str, seen: frozenset[str]) -> str | None:
    """For a function of another project file: why it is impure, or "" when it is pure
    (None: not such a function)."""
    found = project_function(ctx, qual)
    if found is None:
        return None
    other, callee = found
    if _key(other, callee) in seen:
        return ""
    inner = impurities(other, callee, seen) + [
        f"reads `{n}`, which {change_reason(other, n)}" for n in reads_module_state(other, callee)
    ]
    return f"calls `{qual}`, which {inner[0]}" if inner else ""


def _method_impurity(ctx: ModuleContext, stmt: Stmt, name: str, head: str) -> str | None:
    """A method of a parameter or local: pure only on arrays and Python containers (a
    pytree may be an object of a class of the module, an equinox module: a method of a
    name such a class defines is its code)."""
    value = model(ctx).name(stmt, head)
    kind = value.kind
    if kind is Kind.UNKNOWN:
        return _unknown_receiver(ctx, stmt, name, head)
    method = name.partition(".")[2]
    if kind is Kind.PYTREE and method in ctx.per_module(class_methods):
        return f"calls `{name}`, a method a class of this file defines, {UNSEEN}"  # a module
    if kind in _METHOD_SAFE_KINDS:
        return None
    if (
        value.detail in overlays.STATIC_CLASSES
        and f"{value.detail}.{method}" in overlays.PURE_METHODS
    ):
        return None  # `optimizer.update(...)` on an argument proven an optax optimizer
    return f"calls `{name}`, a method of `{head}` ({kind.value}), which runs once, at trace time"


def _unknown_receiver(ctx: ModuleContext, stmt: Stmt, name: str, head: str) -> str | None:
    """A method of a value of unknown kind, which may be any object: a local bound to
    what a call returns that the value model cannot read (`layer = eqx.combine(p, s)`),
    or an argument (`layer.forward(h)` in a scan body), is code autoopt cannot see; an
    argument's array or container reads (`x.sum()`) are left to its own premises."""
    fn = ctx.graph.functions.get(stmt.scope)
    for binder in ctx.graph.reaching_defs(stmt, head):
        node = binder.node
        value = node.value if type(node) is cst.Assign else None
        if type(value) is cst.Call and not _layer_result(ctx, fn, value):
            return f"calls `{name}` on the result of `{_short(ctx, value)}`, {UNSEEN}"
    method = name.partition(".")[2]
    if fn is None or head not in fn.params or head in stmt.mutates:
        return None  # a change of an argument is reported as such (`_argument_change`)
    if fn.is_method and head == "self":
        return None  # the class's own code: followed, or its state read, where it is run
    if method in _ARGUMENT_METHODS:
        return None
    return f"calls `{name}`, a method of its argument `{head}` of a kind not proven, {UNSEEN}"


def _layer_result(ctx: ModuleContext, fn: Function | None, value: cst.Call) -> bool:
    """`value` calls a listed layer a factory's closure `fn` holds (`closure_layer`),
    which returns a new array."""
    func = value.func
    return fn is not None and type(func) is cst.Name and bool(closure_layer(ctx, fn, func.value))


def _qualified_impurity(qual: str) -> str | None:
    if qual in jax_api.IMPURE_JAX:
        return f"{jax_api.IMPURE_JAX[qual]} (`{qual}`)"
    for prefix, reason in overlays.IMPURE_MODULES.items():
        if qual == prefix or qual.startswith(prefix + "."):
            return f"{reason} (`{qual}`)"
    if (
        qual.startswith(overlays.PURE_PREFIXES)
        or qual in overlays.PURE_CALLS
        or qual in ("jax", "numpy")
    ):
        return None
    return f"calls `{qual}`, code autoopt cannot see"


def _bare_call_impurity(
    ctx: ModuleContext,
    fn: Function,
    name: str,
    local: set[str],
    seen: frozenset[str],
    call: cst.Call | None = None,
    instances: Instances = (),
) -> str | None:
    """`call` (absent where a function value is judged) calls `name`, its arguments
    those of `fn`'s that hold `instances`."""
    target = _function_named(ctx, fn, name, local)
    if target is not None and target.scope == MODULE and name in changed_module_names(ctx):
        return f"calls `{name}`, which {change_reason(ctx, name)}"  # not the `def` alone
    if target is not None:
        if _key(ctx, target) in seen:
            return None
        given = _passed(target, call, instances) if call is not None else ()
        inner = (
            _impurities(ctx, target, seen, instances=given)
            if given
            else impurities(ctx, target, seen)
        )
        return f"calls `{name}`, which {inner[0]}" if inner else None
    if name in fn.params and name in dict(instances):
        return _instance_call(ctx, dict(instances)[name], f"its argument `{name}`", seen)
    if name in fn.params:
        return f"calls its argument `{name}`, code autoopt cannot see"
    if name in local:
        return _local_call_impurity(ctx, fn, name, call, instances)
    if closure_layer(ctx, fn, name) is not None:
        return None  # a listed layer its factory built, which computes new arrays
    if name in python_api.PURE_BUILTINS:
        return None
    if name in ctx.graph.classes:
        return _constructor_impurity(ctx, name, seen)  # e.g. a NamedTuple state
    transformed = None if _enclosing_binds(ctx, fn, name) else _held_function(ctx, name)
    if transformed is not None:
        if _key(ctx, transformed) in seen:
            return None
        inner = impurities(ctx, transformed, seen)
        return f"calls `{name}`, which {inner[0]}" if inner else None
    return f"calls `{name}`, code autoopt cannot see"


def _function_named(
    ctx: ModuleContext, fn: Function, name: str, local: set[str]
) -> Function | None:
    """The function of the module a bare `name` in `fn` (binding `local`) calls: the `def`
    of the innermost scope that binds `name`, where nothing else in a function binds it
    (no parameter, no second binding, no lambda or comprehension of its own); a module
    function bound again is the caller's to judge (`changed_module_names`). None for any
    other name: a local bound otherwise, or several times, is judged by each of its
    bindings (`_local_call_impurity`)."""
    scope = fn.qualname if name in local else _outer_scope(ctx, fn.scope, name)
    target = ctx.graph.resolve_function(name, scope)
    if target is None or target.scope != scope:
        return None
    if scope == MODULE:
        return target
    stmts = ctx.graph.scope_stmts(scope)
    if name in ctx.graph.functions[scope].params or target.node is not _only_def(ctx, scope, name):
        return None
    return None if any(name in _inner_bindings(s) for s in stmts) else target


def _outer_scope(ctx: ModuleContext, scope: str, name: str) -> str:
    """The innermost function from `scope` outwards that binds `name`, else the module."""
    while scope in ctx.graph.functions:
        outer = ctx.graph.functions[scope]
        if name in outer.params or _binders(ctx, scope, name):
            return scope
        scope = outer.scope
    return MODULE


def _binders(ctx: ModuleContext, scope: str, name: str) -> list[Stmt]:
    """The statements of `scope` that bind `name`."""
    return [s for s in ctx.graph.scope_stmts(scope) if name in s.defs]


def _only_def(ctx: ModuleContext, scope: str, name: str) -> cst.CSTNode | None:
    """The `def` that is the one binding of `name` in `scope`, if it is one."""
    binders = _binders(ctx, scope, name)
    return binders[0].node if len(binders) == 1 else None


def _held_function(ctx: ModuleContext, name: str) -> Function | None:
    """The function a module-level name holds: JAX transforms of a module function, or
    what a factory of the module returns (`analysis/facts/closures.py`)."""
    return transformed_function(ctx, name) or factory_closure(ctx, name)


def _enclosing_binds(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Whether a function around `fn` binds `name` (which then is not the module's)."""
    outer = ctx.graph.functions.get(fn.scope)
    while outer is not None:
        stmts = ctx.graph.scope_stmts(outer.qualname)
        if name in outer.params or any(name in s.defs for s in stmts):
            return True
        outer = ctx.graph.functions.get(outer.scope)
    return False


def transformed_function(ctx: ModuleContext, name: str) -> Function | None:
    """The module function behind a module-level name bound once to JAX transforms of
    it: `loss_and_grad = jax.jit(jax.value_and_grad(loss))`."""
    defs = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    if len(defs) != 1 or type(defs[0].node) is not cst.Assign:
        return None
    value = defs[0].node.value
    while type(value) is cst.Call and ctx.qualify(value.func) in overlays.TRACING_TRANSFORMS:
        if not value.args or value.args[0].keyword is not None:
            return None
        value = value.args[0].value
    if type(value) is not cst.Name or value is defs[0].node.value:
        return None
    return ctx.graph.resolve_function(value.value, MODULE)


def _local_call_impurity(
    ctx: ModuleContext,
    fn: Function,
    name: str,
    call: cst.Call | None = None,
    instances: Instances = (),
) -> str | None:
    """Calling the local `name`, judged by every statement of `fn` that binds it (each
    must be pure): a lambda (its body is `fn`'s own code) or a nested function
    (followed), a JAX transform or partial of a function proven pure (`g =
    jax.grad(loss)`, given the arguments of `call` that hold `instances`); what any other
    binding gives (`layer = jax.tree.map(...)`, `f = helper`, a loop's target) is code
    autoopt cannot see."""
    binders = _binders(ctx, fn.qualname, name)
    if not binders:
        return f"calls `{name}`, {UNSEEN}"  # a lambda's parameter, a comprehension's target
    if instances and len(binders) > 1:
        return f"calls `{name}`, bound more than once, {UNSEEN}"
    for stmt in binders:
        why = _binding_impurity(ctx, fn, name, stmt, call, instances)
        if why is not None:
            return why
    return None


def _binding_impurity(
    ctx: ModuleContext,
    fn: Function,
    name: str,
    stmt: Stmt,
    call: cst.Call | None,
    instances: Instances,
) -> str | None:
    """Why calling `name` as `stmt` of `fn` binds it is impure (None: proven pure)."""
    node = stmt.node
    if type(node) is cst.FunctionDef:
        nested = ctx.graph.functions.get(f"{fn.qualname}.{name}")
        if nested is None or nested.node is not node:
            return f"calls `{name}`, bound more than once, {UNSEEN}"  # two `def`s
        inner = impurities(ctx, nested)
        return f"calls `{name}`, which {inner[0]}" if inner else None
    if type(node) is not cst.Assign or any(type(t.target) is not cst.Name for t in node.targets):
        return f"calls `{name}`, {UNSEEN}"
    value = node.value
    if type(value) is cst.Lambda:
        return None  # its body's calls are the statement's own
    if type(value) is not cst.Call:
        return f"calls `{name}`, {UNSEEN}"
    seen = frozenset({_key(ctx, fn)})
    why = _wrapped_impurity(ctx, fn, value, seen, call, instances)
    if why.startswith("calls the result of "):
        return f"calls `{name}`, the result of `{_short(ctx, value)}`, {UNSEEN}"
    return f"calls `{name}`, which {why}" if why else None


def reads_module_state(ctx: ModuleContext, fn: Function) -> list[str]:
    """Module-level names the function reads that the program rebinds or mutates."""
    graph = ctx.graph
    local = {n for s in graph.scope_stmts(fn.qualname) for n in s.defs} | set(fn.params)
    reads = {n for s in graph.scope_stmts(fn.qualname) for n in s.uses} - local
    held = {n for n in ctx.held if refers_to_global(ctx, fn, n)}  # fixed while the step runs
    return sorted(reads & changed_module_names(ctx) - held)


def changed_module_names(ctx: ModuleContext) -> set[str]:
    """Module-level names something may change after they are first bound: bound twice
    at module level or in a module-level loop (every iteration binds it again, the loop
    variable included), written through `global`, mutated (`a[i] = v`, `a.append(v)`),
    handed to a call that writes into it (`np.copyto(a, ...)`, `out=a`), or rebound by
    name through the module's namespace or module object (`analysis/facts/reflection.py`)."""
    return ctx.per_module(_changed_module_names) | set(rebinding(ctx).names)


def change_reason(ctx: ModuleContext, name: str, module: str = "the module") -> str:
    """How the program changes the module-level `name` of `module`, for a finding."""
    if name in ctx.per_module(_changed_module_names):
        return f"{module} changes"
    return f"may be rebound through {rebinding(ctx).how(name)}"


def _changed_module_names(ctx: ModuleContext) -> set[str]:
    graph = ctx.graph
    counts: dict[str, int] = {}
    for stmt in graph.scope_stmts(MODULE):
        for name in stmt.defs:
            counts[name] = counts.get(name, 0) + (2 if stmt.loops else 1)
    for loop in graph.loops.values():
        if loop.scope == MODULE and type(loop.node) is cst.For:
            counts.update(dict.fromkeys(graph.stmts[loop.header].defs, 2))
    changed = {n for n, count in counts.items() if count > 1}
    for stmt in graph.stmts:
        fn = graph.functions.get(stmt.scope)
        changed |= stmt.mutates | (stmt.defs & fn.globals if fn else set())
    return {n for n in changed if library_object(ctx, n) is None}


def _lambdas(stmt: Stmt) -> list[cst.Lambda]:
    """The lambdas a statement evaluates, nested ones too (their bodies run where called)."""
    found: list[cst.Lambda] = []
    todo = [n for e in evaluated_exprs(stmt.node) for n in scope_nodes(e)]
    while todo:
        node = todo.pop()
        if type(node) is cst.Lambda:
            found.append(node)
            todo += scope_nodes(node.body)
    return found


def _lambda_params(stmt: Stmt) -> set[str]:
    return {n for lam in _lambdas(stmt) for n in param_names(lam.params)}


def _bound_in(ctx: ModuleContext, fn: Function) -> set[str]:
    """The names `fn`'s code binds: its parameters, its statements' targets, and the
    parameters of its lambdas and targets of its comprehensions (which shadow a name of
    the module where they are read)."""
    stmts = ctx.graph.scope_stmts(fn.qualname)
    local = {n for s in stmts for n in s.defs} | set(fn.params)
    return local | {n for s in stmts for n in _inner_bindings(s)}


def _inner_bindings(stmt: Stmt) -> set[str]:
    """The parameters of the lambdas `stmt` evaluates and the targets of its
    comprehensions."""
    nodes = [n for e in evaluated_exprs(stmt.node) for n in scope_nodes(e)]
    nodes += [n for lam in _lambdas(stmt) for n in scope_nodes(lam.body)]
    return _lambda_params(stmt) | {
        n for c in nodes if type(c) is cst.CompFor for n in bound_names(c.target)
    }


def _all_calls(stmt: Stmt) -> list[cst.Call]:
    """The statement's calls and those in the bodies of its lambdas."""
    return list(stmt.calls) + [c for lam in _lambdas(stmt) for c in calls_in(lam.body)]


def _short(ctx: ModuleContext, node: cst.BaseExpression) -> str:
    """`eqx.combine(...)` for a call, the code of anything else."""
    if type(node) is cst.Call:
        return f"{ctx.code(node.func)}(...)"
    return ctx.code(node)


def _module_class(ctx: ModuleContext, func: cst.BaseExpression) -> str | None:
    """The class of this module a callee names (`Block` in `Block(w)`)."""
    if type(func) is cst.Name and func.value in ctx.graph.classes:
        return func.value
    return None


def _method_of(ctx: ModuleContext, cls: str, method: str, label: str, seen: frozenset[str]) -> str:
    """Why running `cls.method` on an instance built in place is impure ("" when pure):
    its own code, followed; a method the class does not define is code not seen."""
    target = ctx.graph.functions.get(f"{cls}.{method}")
    if target is None:
        return f"calls `{label}.{method}`, {UNSEEN}"
    if _key(ctx, target) in seen:
        return ""
    inner = _impurities(ctx, target, seen, fresh=True)
    return f"calls `{label}`, whose `{method}` {inner[0]}" if inner else ""


def _constructor_impurity(ctx: ModuleContext, cls: str, seen: frozenset[str]) -> str | None:
    """Why constructing the module class `cls` is impure: its own constructor's code."""
    for method in _CONSTRUCTORS:
        target = ctx.graph.functions.get(f"{cls}.{method}")
        if target is not None and _key(ctx, target) not in seen:
            inner = _impurities(ctx, target, seen, fresh=True)
            if inner:
                return f"constructs `{cls}`, whose `{method}` {inner[0]}"
    return None


def _self_call_impurity(
    ctx: ModuleContext,
    fn: Function,
    call: cst.Call,
    seen: frozenset[str],
    instances: Instances = (),
) -> str | None:
    """In a method of an instance built in place: `self.m(...)` follows the class's
    method `m` ("" when pure); any other attribute of `self` called is code not seen.
    On an nnx instance (`instances` naming `self`), a field holding an instance is
    followed too (`facts/nnx_instances.py`). None: not such a call."""
    func = call.func
    if not (type(func) is cst.Attribute and type(func.value) is cst.Name):
        return None
    if func.value.value != "self":
        return None
    method = func.attr.value
    if "self" in dict(instances):
        return _instance_attribute_call(ctx, fn.scope, method, seen)
    if f"{fn.scope}.{method}" not in ctx.graph.functions:
        return f"calls `self.{method}`, {UNSEEN}"
    return _method_of(ctx, fn.scope, method, "self", seen)


def _computed_callee_impurity(
    ctx: ModuleContext,
    fn: Function,
    stmt: Stmt,
    call: cst.Call,
    seen: frozenset[str],
    instances: Instances = (),
) -> str | None:
    """A call whose callee is computed: what another call returns (`Block(w)(h)`,
    `eqx.combine(p, s)(h)`), a method of it (`Block(w).forward(h)`, `x.at[i].set(v)`),
    an item (`fns[i](x)`)."""
    func = call.func
    if type(func) is cst.Call:
        return _wrapped_impurity(ctx, fn, func, seen, call, instances) or None
    if type(func) is cst.Attribute:
        if _instance_result(ctx, func.value, instances):
            return None  # an array's method
        return _computed_method_impurity(ctx, stmt, func, seen)
    if type(func) is cst.Lambda:
        return None  # its body's calls are the statement's own
    return f"calls `{ctx.code(func)}`, {UNSEEN}"


def _wrapped_impurity(
    ctx: ModuleContext,
    fn: Function,
    inner: cst.Call,
    seen: frozenset[str],
    call: cst.Call | None = None,
    instances: Instances = (),
) -> str:
    """Why calling what `inner` returns is impure ("" when proven pure): the `__call__`
    of a class of the module built in place, or the function a JAX transform or a
    partial wraps; anything else a library call returns is code autoopt cannot see.
    An nnx transform that hands the function its own arguments (`ARGUMENT_TRANSFORMS`)
    hands it those of `call` that hold `instances`, as instances of the same class."""
    cls = _module_class(ctx, inner.func)
    if cls is not None:
        return _method_of(ctx, cls, "__call__", f"{cls}(...)", seen)
    qual = ctx.qualify(inner.func) or ""
    first = inner.args[0] if inner.args else None
    wraps = qual in overlays.TRACING_TRANSFORMS or qual in _PARTIALS
    if wraps and first is not None and first.keyword is None and not first.star:
        if qual in nnx_api.ARGUMENT_TRANSFORMS and instances and call is not None:
            return _function_value_impurity(ctx, fn, first.value, seen, call, instances)
        return _function_value_impurity(ctx, fn, first.value, seen)
    if qual in overlays.PURE_LAYER_CALLS:
        return ""  # the constructor call itself is judged as a call of its own
    return f"calls the result of `{_short(ctx, inner)}`, {UNSEEN}"


def _function_value_impurity(
    ctx: ModuleContext,
    fn: Function,
    target: cst.BaseExpression,
    seen: frozenset[str],
    call: cst.Call | None = None,
    instances: Instances = (),
) -> str:
    """Why calling the function `target` names is impure ("" when proven pure), by
    `call`, whose arguments that are `fn`'s hold `instances`."""
    if type(target) is cst.Lambda:
        return ""  # its body's calls are the statement's own
    if type(target) is cst.Call:
        return _wrapped_impurity(ctx, fn, target, seen)
    qual = ctx.qualify(target)
    if qual is not None:
        project = _project_impurity(ctx, qual, seen)
        return (_qualified_impurity(qual) or "") if project is None else project
    if type(target) is cst.Name:
        local = _bound_in(ctx, fn)
        return _bare_call_impurity(ctx, fn, target.value, local, seen, call, instances) or ""
    return f"calls `{ctx.code(target)}`, {UNSEEN}"


def _instance_result(
    ctx: ModuleContext, receiver: cst.BaseExpression, instances: Instances
) -> bool:
    """`receiver` calls a parameter holding one of `instances` whose call returns an
    array (`model(x).mean()`; `facts/nnx_instances.py`, `returns_array`)."""
    func = receiver.func if type(receiver) is cst.Call else None
    held = dict(instances).get(func.value) if type(func) is cst.Name else None
    return held is not None and returns_array(ctx, held)


def _computed_method_impurity(
    ctx: ModuleContext, stmt: Stmt, func: cst.Attribute, seen: frozenset[str]
) -> str | None:
    """A method of a computed value: of a class of the module built in place, its code;
    of what a library call returns, only a data value's (an array's) methods."""
    receiver, method = func.value, func.attr.value
    if is_at_update(func):
        return None
    if type(receiver) is cst.Call and _module_class(ctx, receiver.func):
        cls = _module_class(ctx, receiver.func) or ""
        return _method_of(ctx, cls, method, f"{cls}(...)", seen) or None
    root = receiver
    while type(root) is cst.Attribute or type(root) is cst.Subscript:
        root = root.value
    if type(root) is not cst.Call or not _unknown_result(ctx, stmt, root, receiver, method):
        return None  # a method of a name's value (`x.T.sum()`), judged as the name's are
    return f"calls `.{method}` on the result of `{_short(ctx, root)}`, {UNSEEN}"


def _unknown_result(
    ctx: ModuleContext, stmt: Stmt, root: cst.Call, receiver: cst.BaseExpression, method: str
) -> bool:
    """Whether `receiver` (computed from the call `root`) may be an object whose method
    `method` runs code autoopt has not seen."""
    qual = ctx.qualify(root.func)
    head = dotted(root.func)
    own = _qualified_impurity(qual) if qual is not None else None
    if own is not None and not unseen(own):
        return False  # the call is a reason of its own (`np.random.default_rng()`)
    if qual is None and head is not None and "." in head:
        return False  # `x.reshape(3).sum()`: a method of a name's method's result
    value = model(ctx).value_of(stmt, receiver)
    if value.kind in _DATA_KINDS:
        return False
    if value.kind is Kind.OBJECT and f"{value.detail}.{method}" in overlays.PURE_METHODS:
        return False
    if qual is None and head is not None and ctx.graph.resolve_function(head, stmt.scope):
        return value.kind is Kind.OBJECT or (value.detail or "").startswith("class:")
    return True


#: The kinds of a haiku module's argument that run no code of their own (sizes, names).
_PLAIN_KINDS = (Kind.SCALAR, Kind.STRING, Kind.SHAPE, Kind.DTYPE, Kind.NONE, Kind.CONTAINER)


def _layer_arguments_impurity(
    ctx: ModuleContext, fn: Function, stmt: Stmt, call: cst.Call, seen: frozenset[str]
) -> str | None:
    """A haiku module built in place (`hk.nets.MLP([64, 1], activation=jnp.tanh)`) runs
    the functions it is given: each argument is a literal, a plain value, or a function
    proven pure; anything else (`activation=act`, an argument) is code not seen."""
    for arg in call.args:
        value = arg.value
        if arg.star or is_literal(value):
            continue
        if model(ctx).value_of(stmt, value).kind in _PLAIN_KINDS:
            continue
        if type(value) in (cst.Name, cst.Attribute):
            why = _function_value_impurity(ctx, fn, value, seen)
            if not why:
                continue
            return f"gives `{ctx.code(value)}` to `{_short(ctx, call)}`, which runs it: it {why}"
        return f"gives `{ctx.code(value)}` to `{_short(ctx, call)}`, {UNSEEN}"
    return None


def _transformed_method_impurity(
    ctx: ModuleContext, fn: Function, name: str, seen: frozenset[str]
) -> str | None:
    """`net.apply(params, x)` (or `init`) of a module global bound once to `hk.transform`
    of a function of the module (through `hk.without_apply_rng`), or of a function
    decorated `@hk.transform`: it runs that function, whose own code is judged ("" when
    pure). None: not such a call."""
    head, _, method = name.partition(".")
    if method not in ("apply", "init") or not refers_to_global(ctx, fn, head):
        return None
    target = transformed_by_haiku(ctx, head)
    if target is None:
        return None
    if _key(ctx, target) in seen:
        return ""
    inner = impurities(ctx, target, seen | {_key(ctx, fn)})
    return f"calls `{name}`, which runs `{target.name}`: it {inner[0]}" if inner else ""


def transformed_by_haiku(ctx: ModuleContext, name: str) -> Function | None:
    """The module function behind the module global `name`, bound once (outside loops,
    changed by nothing) to a haiku transform of it."""
    if name in changed_module_names(ctx):
        return None
    decorated = ctx.graph.resolve_function(name, MODULE)
    if decorated is not None:
        decorators = decorated.node.decorators
        one = len(decorators) == 1 and ctx.qualify(decorators[0].decorator)
        return decorated if one in haiku_api.TRANSFORMING else None
    defs = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    if len(defs) != 1 or defs[0].loops or type(defs[0].node) is not cst.Assign:
        return None
    value = defs[0].node.value
    if type(value) is cst.Call and ctx.qualify(value.func) in haiku_api.SAME_INIT:
        value = value.args[0].value if len(value.args) == 1 else value
    if type(value) is not cst.Call or ctx.qualify(value.func) not in haiku_api.TRANSFORMING:
        return None
    args = value.args
    if len(args) != 1 or args[0].keyword is not None or type(args[0].value) is not cst.Name:
        return None
    return ctx.graph.resolve_function(args[0].value.value, MODULE)


def _kept_instances(ctx: ModuleContext, fn: Function, instances: Instances) -> Instances:
    """The `instances` of parameters of `fn` that hold them throughout: not bound again
    in `fn` (by a statement, a lambda's or comprehension's own names), nor declared
    `global` or `nonlocal`."""
    if not instances:
        return ()
    stmts = ctx.graph.scope_stmts(fn.qualname)
    bound = {n for s in stmts for n in s.defs | _lambda_params(s)} | fn.globals | fn.nonlocals
    for stmt in stmts:
        for node in scope_nodes(stmt.node):
            if type(node) is cst.CompFor:
                bound |= {n.value for n in scope_nodes(node.target) if type(n) is cst.Name}
    return tuple((p, c) for p, c in instances if p in fn.params and p not in bound)


def _shared_changes(ctx: ModuleContext, fn: Function, instances: bool) -> list[str]:
    """Its locals changed in place that a binding other than a new object's may have made
    (`p = params; p["w"] = w`, `h = self.history; h.append(x)`): they may be an argument's
    objects, a global's, or (`instances`: a function given nnx instances) Python state of
    a module, which a trace changes once."""
    stmts = ctx.graph.scope_stmts(fn.qualname)
    changed = sorted({n for s in stmts for n in s.mutates} - set(fn.params) - {"self"})
    held = "Python state of a module" if instances else "an object from outside the function"
    return [
        f"changes `{name}` {SHARED_CHANGE} {held}"
        for name in changed
        if not all(_new_object(ctx, s, name) for s in stmts if name in s.defs)
    ]


def _new_object(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name = []`, `name = dict(...)`, `name = np.zeros(...)`: an object of its own (a
    display or comprehension, or a call the overlays list as making a new object)."""
    value = assigned_value(stmt, name)
    if value is None:
        return False
    if type(value) in _CONTAINERS:
        return True
    if type(value) is not cst.Call or any(
        a.keyword and a.keyword.value == "copy" for a in value.args
    ):
        return False
    qual = ctx.qualify(value.func) or dotted(value.func) or ""
    return qual in python_api.NEW_OBJECT_CALLS or qual in numpy_api.NEW_ARRAY_CALLS


_CONTAINERS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)


def _passed(target: Function, call: cst.Call, instances: Instances) -> Instances:
    """The parameters of `target` that `call` gives a parameter holding one of
    `instances`, by name or position (none where it unpacks arguments)."""
    held = dict(instances)
    if not held or target.is_method or any(a.star for a in call.args):
        return ()
    given = []
    for position, arg in enumerate(call.args):
        value = arg.value
        if type(value) is not cst.Name or value.value not in held:
            continue
        if arg.keyword is not None:
            given.append((arg.keyword.value, held[value.value]))
        elif position < len(target.positional):
            given.append((target.positional[position], held[value.value]))
    return tuple(given)


def _instance_call(
    ctx: ModuleContext, instance: str, label: str, seen: frozenset[str]
) -> str | None:
    """Why calling an object of `instance` (`label` in the reason) is impure (None when
    proven pure): a listed layer computes new arrays and changes nothing
    (`overlays/flax_nnx.py`, `UNKEPT_LAYER_CALLS`); a class of the module runs its
    `__call__`, followed."""
    if is_layer(instance):
        return None
    return _instance_method(ctx, instance, "__call__", label, seen) or None


def _instance_attribute_call(
    ctx: ModuleContext, cls: str, attr: str, seen: frozenset[str], owner: str = "self"
) -> str:
    """Why `owner.attr(...)` on an object of the class `cls` is impure ("" when proven
    pure): a method of the class, or a field holding an instance, followed."""
    label = f"`{owner}.{attr}`"
    if f"{cls}.{attr}" in ctx.graph.functions:
        if attr in _CONSTRUCTORS:
            return f"calls {label}, which sets the module up again"
        return _instance_method(ctx, cls, attr, label, seen)
    held = field_instance(ctx, cls, attr)
    if held is not None:
        return _instance_call(ctx, held, label, seen) or ""
    closure = field_closure(ctx, cls, attr)
    if closure is None:
        return f"calls {label}, {UNSEEN}"
    if _key(ctx, closure) in seen:
        return ""
    inner = _impurities(ctx, closure, seen)
    return f"calls {label}, a closure `{closure.qualname}`, which {inner[0]}" if inner else ""


def _instance_method(
    ctx: ModuleContext, cls: str, method: str, label: str, seen: frozenset[str]
) -> str:
    """Why running `cls.method` on an nnx module object a trace is given is impure ("" when
    proven pure): its code, `self` that object, whose variables the trace holds and whose
    other attributes nothing it runs may change (`_impurities`, `fresh` and `self` an
    instance)."""
    problem = method_problem(ctx, cls, method)
    if problem:
        return f"calls {label}, whose `{cls}.{method}` {problem}, {UNSEEN}"
    target = ctx.graph.functions[f"{cls}.{method}"]
    if _key(ctx, target) in seen:
        return ""
    inner = _impurities(ctx, target, seen, fresh=True, instances=(("self", cls),))
    return f"calls {label}, whose `{cls}.{method}` {inner[0]}" if inner else ""
