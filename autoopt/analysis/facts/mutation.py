"""May a host value change in place, or be read, while a loop runs? The one authority for
AO301's hoists (asked through `facts/invariance.py`), AO302's deferrals
(`plans/collect.py`) and AO402's joins; what each statement and function may change is
`facts/writes.py`.

**Changes** (`change_reason`): every name that may share an object with the names asked
about (aliases, views, containers holding them, a bound method or closure of them, also
through module-level aliases; `facts/aliases.py`) must be changed by no statement that runs
during the loop (the `for` header included: a generator runs on every step), nor by code
those statements run; a parameter among them counts as the globals its function's call
sites hand it (any mutable global, where the function may be called from elsewhere). No
function may change them without being called by the loop either: for a function's loop,
any function of the module changing a global among them in place (or rebinding one asked
about); for any loop, a function used as a value or decorated (a callback, a thread's
target) changing a variable of the loop's scope among them (names resolved lexically,
`_binding_scope`). When the loop calls code autoopt cannot see, none of them may be
reachable by that code: a global, an object handed to unseen code (`RETAINED`), one that a
function used as a value closes over.

**Kept objects** (`kept_objects`): what a value may be, view or hold by reference (for a
value kept until after the loop): a name, the root of its attributes and subscripts, a
literal's elements, what a call may return (`facts/aliases.py`); arithmetic makes a new
object (on sequences it holds their elements); a JAX call returns a JAX array.

**Readers** (`late_reader`): a lambda or generator expression of the scope that reads the
name, code that reads names by introspection (`globals()`, `locals()`, `vars()`, `eval`,
`exec`), or a function reading that variable as a free variable (late binding: defined
before or after the name is bound) that may run during the loop: one it calls or hands on,
through the module's functions; one used as a value or decorated (a callback, a thread's
target: it may run at any time); a method, when the loop calls code autoopt cannot see.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import only_called
from autoopt.analysis.core.graph import MODULE, Function, Loop, Stmt
from autoopt.analysis.core.jitted import is_escaping
from autoopt.analysis.core.project import project_function
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.aliases import KEPT, RETAINED, Sharing, scope_sharing
from autoopt.analysis.facts.purity import transformed_function
from autoopt.analysis.facts.writes import (
    HOPS,
    IMMUTABLE,
    Cause,
    bound_names,
    direct_causes,
    holds,
    jitted_function,
    run_causes,
    writes,
)
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Kinds of the data a parameter may receive from a global.
_DATA = (Kind.HOST_ARRAY, Kind.CONTAINER, Kind.PYTREE, Kind.OBJECT, Kind.UNKNOWN)
#: Kinds of values code autoopt cannot see may change, once it can reach them (a module's
#: attributes too).
_MUTABLE = (*_DATA, Kind.MODULE)
#: Kinds that may be a list or tuple, whose arithmetic results hold their elements.
_SEQUENCES = (Kind.CONTAINER, Kind.PYTREE, Kind.OBJECT, Kind.UNKNOWN)


def change_reason(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """Why an object `names` hold may change in place (or a global among them be rebound
    by other code) while `loop` runs; None when nothing can."""
    sharing = scope_sharing(ctx, loop.scope)
    held = _held(ctx, loop, names, sharing)
    running = _running(ctx, loop)
    direct = {n for s in running for c in _direct(ctx, s, sharing) for n in c.names} & held
    if direct:
        return f"`{sorted(direct)[0]}` changes inside the loop"
    unseen, through = "", ""
    for stmt in running:
        sharing.at = stmt
        for cause in run_causes(ctx, stmt, sharing):
            hit = sorted(cause.names & held - {RETAINED}) or sorted(names & cause.names & held)
            hit = hit or (sorted(names) if RETAINED in cause.names & held else [])
            if hit and not cause.held:
                return _spelled(cause.why, hit[0])
            through = through or (_spelled(cause.why, hit[0]) if hit else "")
            unseen = unseen or cause.unseen
    if through:
        return through
    reason = _global_writer(ctx, loop, names, held)
    if reason or not unseen:
        return reason
    reached = _reachable(ctx, loop, held)
    if reached is None:
        return None
    return f"the loop calls `{unseen}`, code autoopt cannot see, which may change `{reached}`"


def _direct(ctx: ModuleContext, stmt: Stmt, sharing: Sharing) -> Iterator[Cause]:
    sharing.at = stmt
    return direct_causes(ctx, stmt, sharing)


def kept_objects(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> set[str]:
    """The names whose objects the value of `expr` at `stmt` may be, view or hold, among
    those that can change in place: a name, the root of its attributes and subscripts, the
    elements of a literal, what a call other than JAX's may return (`facts/aliases.py`).
    Arithmetic makes a new object; on sequences it holds their elements (`[row] * 2`,
    `rows + more`: what fills them)."""
    if type(expr) is cst.Name:
        kind = model(ctx).value_of(stmt, expr).kind
        return set() if kind in (*IMMUTABLE, Kind.MODULE) else {expr.value}
    if type(expr) in (cst.Attribute, cst.Subscript):
        return kept_objects(ctx, stmt, expr.value)  # type: ignore[attr-defined]
    if type(expr) in (cst.Tuple, cst.List):
        return {n for e in expr.elements for n in kept_objects(ctx, stmt, e.value)}  # type: ignore[attr-defined]
    if type(expr) in (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison):
        parts = [getattr(expr, f) for f in ("left", "right", "expression") if hasattr(expr, f)]
        return {n for part in parts for n in _elements(ctx, stmt, part)}
    if isinstance(expr, cst.BaseNumber | cst.BaseString):
        return set()
    if type(expr) is cst.Call and (ctx.qualify(expr.func) or "").startswith("jax."):
        return set()  # a JAX array: new, or a view of an immutable one
    sharing = scope_sharing(ctx, stmt.scope)
    sharing.at = stmt
    shared = sharing.shares(expr).names() - {RETAINED}  # a call: what it may return
    return {n for n in shared if kept_objects(ctx, stmt, cst.Name(n))}


def _elements(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> set[str]:
    """What an operand of arithmetic lends its result: a literal's elements, what fills a
    sequence it names (nothing, for an array or a number)."""
    if type(expr) in (cst.Tuple, cst.List):
        return kept_objects(ctx, stmt, expr)
    if type(expr) is cst.Name and model(ctx).value_of(stmt, expr).kind in _SEQUENCES:
        return holds(ctx, stmt.scope, expr.value, HOPS)
    return set()


def _spelled(why: str, name: str) -> str:
    """`why` about `name`; a place the alias authority names by a clause (`<kept>is read
    from `nnx.Param`, ...`) reads as "a value that is read from ..."."""
    if name.startswith(KEPT):
        return why.replace("`{name}`", f"a value that {name[len(KEPT) :]}")
    return why.format(name=name)


def late_reader(ctx: ModuleContext, loop: Loop, name: str) -> str | None:
    """Code other than the loop's own statements that may read `name` (of the loop's
    scope) while `loop` runs, or None: a lambda or generator expression reading it, code
    reading names by introspection, or a function reading it as a free variable that may
    run during the loop: the loop calls it (through the module's functions) or hands it
    on; it is used as a value or decorated (a callback, a thread's target: it may run at
    any time); it is a method, and the loop calls code autoopt cannot see."""
    if _deferred_read(ctx, loop.scope, name):
        return f"a lambda or generator expression reads `{name}` when it runs"
    introspection = ctx.per_module(_introspection)
    if introspection:
        return f"`{introspection}` may read `{name}`"
    runs, unseen = _runs_during(ctx, loop)
    variable = _own_scope(ctx, loop.scope, name)
    for fn in ctx.graph.functions.values():
        if fn.qualname == loop.scope or not _reads_free(ctx, fn, name):
            continue
        if _binding_scope(ctx, fn, name) != variable:
            continue  # another variable of that name
        if fn.qualname in runs or _escapes(ctx, fn) or (unseen and fn.is_method):
            return f"the function `{fn.name}` reads `{name}`"
    return None


def _reads_free(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Whether `fn` reads `name` from outside (a free variable, or declared global)."""
    stmts = ctx.graph.scope_stmts(fn.qualname)
    if name in fn.globals | fn.nonlocals:
        return True
    return name not in _locals(ctx, fn.qualname) and any(name in s.uses for s in stmts)


def _runs_during(ctx: ModuleContext, loop: Loop) -> tuple[set[str], bool]:
    """The module's functions the loop may run (those its statements call or hand on, and
    theirs), and whether it calls code autoopt cannot see."""
    runs: set[str] = set()
    unseen = False
    todo = list(_running(ctx, loop))
    while todo:
        stmt = todo.pop()
        sharing = scope_sharing(ctx, stmt.scope)
        sharing.at = stmt
        unseen = unseen or any(c.unseen for c in run_causes(ctx, stmt, sharing))
        for call in stmt.calls:
            for fn in _named_functions(ctx, stmt, call):
                if fn.qualname not in runs:
                    runs.add(fn.qualname)
                    todo.extend(ctx.graph.scope_stmts(fn.qualname))
    return runs, unseen


def _named_functions(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> Iterator[Function]:
    """The module functions a call names: its callee and the arguments that name one."""
    for expr in (call.func, *(a.value for a in call.args)):
        if type(expr) is cst.Name:
            fn = ctx.graph.resolve_function(expr.value, stmt.scope)
            fn = fn or transformed_function(ctx, expr.value) or jitted_function(ctx, expr.value)
            if fn is not None:
                yield fn
        elif type(expr) is cst.Call:
            yield from _named_functions(ctx, stmt, expr)  # `jax.jit(f)(x)`


def _introspection(ctx: ModuleContext) -> str:
    """A call that reads variables by name (`globals()`, `eval(...)`), or ""."""
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            func = call.func
            if type(func) is not cst.Name or func.value not in python_api.INTROSPECTION_BUILTINS:
                continue
            if func.value not in ctx.per_module(bound_names):
                return ctx.code(call)
    return ""


def _deferred_read(ctx: ModuleContext, scope: str, name: str) -> bool:
    return any(
        type(node) in (cst.Lambda, cst.GeneratorExp)
        and name in {n.value for n in walk(node) if type(n) is cst.Name}
        for s in ctx.graph.scope_stmts(scope)
        if name in s.uses
        for node in walk(s.node)
    )


def _held(ctx: ModuleContext, loop: Loop, names: set[str], sharing: Sharing) -> set[str]:
    """The names that may share an object with `names`: aliases in the loop's scope, and
    in a function, module-level aliases and the globals its parameters may hold."""
    held = sharing.component(names, weak=True)
    if loop.scope != MODULE:
        outer = held | _param_globals(ctx, loop, held)
        held = sharing.component(scope_sharing(ctx, MODULE).component(outer, weak=True), True)
    return held


def _running(ctx: ModuleContext, loop: Loop) -> list[Stmt]:
    """The statements that run during the loop: its body, and a `for` header's calls."""
    header = ctx.graph.stmts[loop.header]
    body = ctx.graph.loop_stmts(loop.id)
    return body if header in body else [header, *body]


def _locals(ctx: ModuleContext, scope: str) -> set[str]:
    """The names `scope` binds for itself (its parameters included)."""
    fn = ctx.graph.functions.get(scope)
    bound = {n for s in ctx.graph.scope_stmts(scope) for n in s.defs}
    return bound - (fn.globals | fn.nonlocals) | set(fn.params) if fn else bound


def _global_writer(ctx: ModuleContext, loop: Loop, names: set[str], held: set[str]) -> str | None:
    """A function of the module that may run during the loop without the loop calling it
    and changes an object among `held` in place, or rebinds one of `names`: any function,
    for a global of a function's loop; one used as a value or decorated (a callback, a
    thread's target), for a name of the loop's own scope."""
    outside = held - _locals(ctx, loop.scope) if loop.scope != MODULE else set()
    for other in ctx.graph.functions.values():
        done = writes(ctx, other)
        if done is None:  # asked while `other` is being summarised: assume the worst
            return f"`{other.name}` may change `{sorted(held)[0]}`"
        changed = {n: _binding_scope(ctx, other, n) for n in done.outer | (done.rebinds & names)}
        hit = sorted(n for n in outside if changed.get(n) == MODULE)
        if not hit and _escapes(ctx, other):
            hit = sorted(n for n in held if changed.get(n) == loop.scope)
        if hit:
            return f"`{other.name}` changes `{hit[0]}`"
    return None


def _own_scope(ctx: ModuleContext, scope: str, name: str) -> str:
    """The scope whose variable `name` is, read in `scope` itself: the module for a name
    it declares `global`, the enclosing binder for a `nonlocal` one, else `scope`."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or not (name in fn.globals or name in fn.nonlocals):
        return scope
    return _binding_scope(ctx, fn, name)


def _binding_scope(ctx: ModuleContext, fn: Function, name: str) -> str:
    """The scope whose variable `name` is, read from `fn` (lexically: the nearest enclosing
    function that binds it, else the module)."""
    if name in fn.globals:
        return MODULE
    scope = fn.scope
    while scope != MODULE:
        outer = ctx.graph.functions.get(scope)
        if outer is None:  # a class body: its names are not seen from its methods
            scope = scope.rpartition(".")[0] or MODULE
            continue
        if name in outer.globals:
            return MODULE
        if name in _locals(ctx, scope):
            return scope
        scope = outer.scope
    return MODULE


def _escapes(ctx: ModuleContext, fn: Function) -> bool:
    """Whether code other than calls by name may run `fn`: it is used as a value,
    decorated, or a special method, which the interpreter calls by itself (`__format__`
    from an f-string, `__add__` from `+`, `__iter__` from a `for`, `__del__` at any
    time)."""
    special = fn.is_method and fn.name.startswith("__") and fn.name.endswith("__")
    return special or bool(fn.node.decorators) or is_escaping(ctx, fn.name, False)


def _param_globals(ctx: ModuleContext, loop: Loop, held: set[str]) -> set[str]:
    """The module-level names the parameters among `held` may hold, from the arguments of
    the function's call sites (any mutable global, where it may be called from elsewhere)."""
    fn = ctx.graph.functions[loop.scope]
    found: set[str] = set()
    for param in sorted(held & set(fn.params)):
        found |= _sources(ctx, fn, param, HOPS)
    return found


def _sources(ctx: ModuleContext, fn: Function, param: str, hops: int) -> set[str]:
    if hops == 0 or not only_called(ctx, fn):
        return ctx.per_module(_mutable_globals)
    found: set[str] = set()
    for site in ctx.graph.call_sites(fn):
        expr = site.argument(fn.params.index(param), param)
        if expr is None:
            continue  # its default, or behind `*args` (passed on from the caller's own)
        sharing = scope_sharing(ctx, site.stmt.scope)
        sharing.at = site.stmt
        names = sharing.component(sharing.shares(expr).names(), weak=True)
        caller = ctx.graph.functions.get(site.stmt.scope)
        local = _locals(ctx, site.stmt.scope) if caller else set()
        for name in names:
            if caller is not None and name in caller.params:
                found |= _sources(ctx, caller, name, hops - 1)
            elif name not in local:
                found.add(name)
    return found


def _mutable_globals(ctx: ModuleContext) -> set[str]:
    """Module-level names that may hold an object code can change in place."""
    values = model(ctx)
    return {
        n
        for s in ctx.graph.scope_stmts(MODULE)
        for n in s.defs
        if values.defined(s, n).kind in _DATA
    }


def _reachable(ctx: ModuleContext, loop: Loop, held: set[str]) -> str | None:
    """A name among `held` whose object code autoopt cannot see may reach: a global (the
    globals a parameter may hold are among `held`), one handed to such code, or one a
    function used as a value closes over."""
    values = model(ctx)
    header = ctx.graph.stmts[loop.header]
    mutable = sorted(n for n in held - {RETAINED} if values.name(header, n).kind in _MUTABLE)
    fn = ctx.graph.functions.get(loop.scope)
    if fn is None or RETAINED in held:
        return mutable[0] if mutable else None
    own = _locals(ctx, loop.scope)  # a parameter's globals are among `held` already
    for name in mutable:
        if name not in own:
            return name
    for other in ctx.graph.functions.values():
        if other.scope == loop.scope and is_escaping(ctx, other.name, False):
            captured = sorted(set(mutable) & _free_reads(ctx, other))
            if captured:
                return captured[0]
    return None


def _free_reads(ctx: ModuleContext, fn: Function) -> set[str]:
    """The names `fn` and the functions nested in it read from outside."""
    inner = [
        f
        for q, f in ctx.graph.functions.items()
        if q == fn.qualname or q.startswith(f"{fn.qualname}.")
    ]
    reads = {n for f in inner for s in ctx.graph.scope_stmts(f.qualname) for n in s.uses}
    return reads - _locals(ctx, fn.qualname)


_CONFIG_DEPTH = 8  # calls followed at once


def config_writer(ctx: ModuleContext, loop: Loop) -> str | None:
    """A call the loop runs, itself or through the functions of the project it calls,
    that changes JAX's configuration (`jax.config.update("jax_enable_x64", True)`):
    every JAX value the loop computes may then differ from one iteration to the next."""
    return _config_writer(ctx, ctx.graph.loop_stmts(loop.id), 0, set())


def _config_writer(
    ctx: ModuleContext, stmts: list[Stmt], depth: int, seen: set[tuple[str, str]]
) -> str | None:
    for stmt in stmts:
        for call in stmt.calls:
            qual = ctx.qualify(call.func) or ""
            if qual in jax_api.CONFIG_WRITERS:
                return f"`{ctx.code(call)}` changes JAX's configuration"
            callee = _callee(ctx, call, qual)
            if callee is None or depth >= _CONFIG_DEPTH:
                continue
            other, fn = callee
            if (other.path, fn.qualname) in seen:
                continue
            seen.add((other.path, fn.qualname))
            found = _config_writer(other, other.graph.scope_stmts(fn.qualname), depth + 1, seen)
            if found:
                return f"`{ctx.code(call.func)}` runs {found}"
    return None


def _callee(ctx: ModuleContext, call: cst.Call, qual: str) -> tuple[ModuleContext, Function] | None:
    """The project function a call runs: of this module by name, or of another file."""
    if type(call.func) is cst.Name:
        fn = ctx.graph.functions.get(call.func.value)
        if fn is not None and fn.scope == MODULE:
            return ctx, fn
    return project_function(ctx, qual) if qual else None
