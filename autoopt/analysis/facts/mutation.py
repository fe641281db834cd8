"""May a host value change in place, or be read, while a loop runs? The one authority for
AO301's hoists (asked through `facts/invariance.py`), AO302's deferrals
(`plans/collect.py`) and AO402's joins.

A JAX array never changes in place; a NumPy array, a list, a dict or any other object may,
by the loop's own statements or by code they call. Each layer over-approximates, and what
it cannot see counts as a change.

**A statement** (`causes`) may change in place the objects of:

- its targets' roots (`a[i] = v`, `a.flat[i] = v`, `a.x = v`, `del a[k]`) and an
  augmented target (`a += v` extends a list, writes a NumPy array in place);
- the receiver of every method not known to only read it (`a.fill(v)`, `a.sort()`,
  `q.extend(r)`, `obj.step()`), unless it is a JAX array or a string;
- what a NumPy call writes, by the tables of `overlays/numpy.py` (`core/exprs.py`,
  `numpy_written`): `out=`, a ufunc's positional outputs (`np.multiply(a, b, out)`),
  another function's positional `out`, the first argument of `np.copyto`,
  `np.ndarray.fill(a, v)`, `np.subtract.at`, `np.nan_to_num(x, copy=False)`; an array
  method's `out` (`a.sum(0, None, out)`); any argument where the tables do not reach;
  the first argument of `setattr` and of `operator.iadd`/`operator.setitem`/...;
- every argument of a library call that calls the functions it is given (`map`,
  `np.vectorize`, `jax.debug.callback`, the transforms and tree maps);
- what a function of the module or of another file of the project changes (`writes`):
  its parameters' objects, mapped to the arguments, and outer names;
- for code autoopt cannot see (an unknown function, a method of an unknown object, a
  callable held in a variable: a bound method `reset = buf.fill`, a lambda, a
  `functools.partial`): every argument, the objects the callable holds, and whatever
  that code can reach (below).

**A function** (`writes`, once per function): the parameters and outer names (globals,
closure cells) whose objects its statements change, through the aliases inside it (`b = a;
b[:] = 0`, `for row in a: row[:] = 0`, a view `a.reshape(-1)`: `facts/aliases.py`), the
global and nonlocal names it rebinds, and whether it calls code autoopt cannot see. A call
back into a function being summarised counts as code autoopt cannot see.

**A loop** (`change_reason`): every name that may share an object with the names asked
about (aliases, views, containers holding them, a bound method or closure of them, also
through module-level aliases; `facts/aliases.py`) must be changed by no statement that runs
during the loop (the `for` header's calls included: a generator runs on every step); no
function of the module may change a global among them (it may run from anywhere), nor a
global that a parameter among them may hold (the arguments of its call sites, unknown
where the function may be called from elsewhere); and when the loop calls code autoopt
cannot see, none of them may be reachable by that code: a global, a parameter, an object
handed to unseen code (`RETAINED`), or one a function used as a value closes over.

**Readers** (`late_reader`): a function other than the scope that reads a name as a free
variable (late binding: defined before or after the name is bound), a lambda or generator
expression of the scope that reads it, and code that reads names by introspection
(`globals()`, `locals()`, `vars()`, `eval`, `exec`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import (
    is_at_update,
    method_written,
    mutating_call_target,
    numpy_written,
)
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Loop, Stmt
from autoopt.analysis.core.project import project_function
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.aliases import RETAINED, Sharing, scope_sharing
from autoopt.analysis.facts.execution import only_called
from autoopt.analysis.facts.jitted import is_escaping, jitted_callables
from autoopt.analysis.facts.purity import transformed_function
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Methods that read their receiver without changing it.
READ_ONLY_METHODS = jax_api.READ_METHODS | python_api.READ_METHODS
#: Kinds whose objects never change in place.
_IMMUTABLE = (Kind.ARRAY, Kind.STRING, Kind.SCALAR, Kind.SHAPE, Kind.DTYPE, Kind.NONE)
#: Kinds of values code autoopt cannot see may change, once it can reach them.
_MUTABLE = (Kind.HOST_ARRAY, Kind.CONTAINER, Kind.PYTREE, Kind.OBJECT, Kind.UNKNOWN)
#: Kinds that may be a list or tuple, whose arithmetic results hold their elements.
_SEQUENCES = (Kind.CONTAINER, Kind.PYTREE, Kind.OBJECT, Kind.UNKNOWN)
_LIST_METHODS = python_api.MUTATING_METHODS | python_api.READ_METHODS
_READING_BUILTINS = (
    python_api.PURE_BUILTINS | python_api.READ_ONLY_BUILTINS | set(python_api.IO_BUILTINS)
) - python_api.CALLING_BUILTINS
_MAX_HOPS = 3  # call sites followed back to find what a parameter holds


@dataclass(frozen=True)
class Cause:
    """Names whose objects one call or statement may change, and why (`{name}` is the one
    a question hits); `unseen` names the code autoopt cannot see that it runs, `calls` the
    variables whose values it calls (a parameter called: what its argument holds)."""

    names: frozenset[str]
    why: str
    unseen: str = ""
    calls: frozenset[str] = frozenset()  # the variables whose callables it calls
    held: bool = False  # changed only as what a callable holds (reported after the rest)


@dataclass(frozen=True)
class Writes:
    """What a function may change: the objects of parameters and outer names, the global
    or nonlocal names it rebinds, and the unseen code it calls ("" for none)."""

    params: frozenset[str] = frozenset()
    outer: frozenset[str] = frozenset()
    rebinds: frozenset[str] = frozenset()
    unseen: str = ""
    called: frozenset[str] = frozenset()  # parameters it calls


def change_reason(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """Why an object `names` hold may change in place (or a global among them be rebound
    by other code) while `loop` runs; None when nothing can."""
    sharing = scope_sharing(ctx, loop.scope)
    held = _held(ctx, loop, names, sharing)
    running = _running(ctx, loop)
    direct = sorted({n for s in running for c in _direct(ctx, s) for n in c.names} & held)
    if direct:
        return f"`{direct[0]}` changes inside the loop"
    unseen, through = "", ""
    for stmt in running:
        sharing.at = stmt
        for call in stmt.calls:
            for cause in _Call(ctx, stmt, call, sharing, frozenset()).causes():
                hit = sorted(cause.names & held)
                if hit and not cause.held:
                    return cause.why.format(name=hit[0])
                through = through or (cause.why.format(name=hit[0]) if hit else "")
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


def kept_objects(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> set[str]:
    """The names whose objects the value of `expr` at `stmt` may be, view or hold, among
    those that can change in place: a name, the root of its attributes and subscripts, the
    elements of a literal, what a call other than JAX's may return (`facts/aliases.py`).
    Arithmetic makes a new object; on sequences it holds their elements (`[row] * 2`,
    `rows + more`: what fills them)."""
    if type(expr) is cst.Name:
        kind = model(ctx).value_of(stmt, expr).kind
        return set() if kind in (*_IMMUTABLE, Kind.MODULE) else {expr.value}
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
        return _holds(ctx, stmt.scope, expr.value, _MAX_HOPS)
    return set()


def late_reader(ctx: ModuleContext, loop: Loop, name: str) -> str | None:
    """Code other than the loop's own statements that may read `name` (of the loop's
    scope) while `loop` runs, or None: a lambda or generator expression reading it, code
    reading names by introspection, or a function reading it as a free variable that the
    loop may run (it calls it, through the module's functions, or hands it on; or calls
    code autoopt cannot see while the function is used as a value, decorated or a method)."""
    if _deferred_read(ctx, loop.scope, name):
        return f"a lambda or generator expression reads `{name}` when it runs"
    introspection = ctx.per_module(_introspection)
    if introspection:
        return f"`{introspection}` may read `{name}`"
    runs, unseen = _runs_during(ctx, loop)
    for fn in ctx.graph.functions.values():
        if fn.qualname == loop.scope or not _reads_free(ctx, fn, name):
            continue
        if fn.qualname in runs or (unseen and _loose(ctx, fn)):
            return f"the function `{fn.name}` reads `{name}`"
    return None


def _reads_free(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Whether `fn` reads `name` from outside (a free variable, or declared global)."""
    stmts = ctx.graph.scope_stmts(fn.qualname)
    if name in fn.globals | fn.nonlocals:
        return True
    return name not in _locals(ctx, fn.qualname) and any(name in s.uses for s in stmts)


def _loose(ctx: ModuleContext, fn: Function) -> bool:
    """Whether code autoopt cannot see may call `fn`: it is used as a value, decorated, or
    a method."""
    return fn.is_method or bool(fn.node.decorators) or is_escaping(ctx, fn.name, False)


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
        for call in stmt.calls:
            unseen = unseen or any(
                c.unseen for c in _Call(ctx, stmt, call, sharing, frozenset()).causes()
            )
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
            fn = fn or transformed_function(ctx, expr.value) or _jitted_function(ctx, expr.value)
            if fn is not None:
                yield fn
        elif type(expr) is cst.Call:
            yield from _named_functions(ctx, stmt, expr)  # `jax.jit(f)(x)`


def _introspection(ctx: ModuleContext) -> str:
    """A call that reads variables by name (`globals()`, `eval(...)`), or ""."""
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            func = call.func
            named = type(func) is cst.Name and func.value in python_api.INTROSPECTION_BUILTINS
            if named and func.value not in ctx.per_module(_bound_names):  # type: ignore[union-attr]
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


def writes(ctx: ModuleContext, fn: Function, _seen: frozenset[str] = frozenset()) -> Writes:
    """What `fn` may change (once per function; inside a cycle of callees, afresh)."""
    if not _seen:
        return ctx.per_function(_writes, fn)
    return _writes(ctx, fn, _seen)


def _writes(ctx: ModuleContext, fn: Function, outer: frozenset[str] = frozenset()) -> Writes:
    seen = outer | {_key(ctx, fn)}
    sharing = scope_sharing(ctx, fn.qualname)
    changed: set[str] = set()
    called: set[str] = set()
    unseen = ""
    stmts = ctx.graph.scope_stmts(fn.qualname)
    for stmt in stmts:
        sharing.at = stmt
        for cause in causes(ctx, stmt, sharing, seen):
            changed |= cause.names
            called |= cause.calls
            unseen = unseen or cause.unseen
    reach = sharing.component(changed, weak=True) - {RETAINED}
    declared = fn.globals | fn.nonlocals
    bound = {n for s in stmts for n in s.defs}
    params = set(fn.params)
    return Writes(
        params=frozenset(reach & params),
        outer=frozenset(reach - (bound - declared) - params),
        rebinds=frozenset(bound & declared),
        unseen=unseen,
        called=frozenset(sharing.component(called, weak=True) & params),
    )


def _key(ctx: ModuleContext, fn: Function) -> str:
    return f"{ctx.path}::{fn.qualname}"


# -- statements ---------------------------------------------------------------------------
def causes(
    ctx: ModuleContext, stmt: Stmt, sharing: Sharing, seen: frozenset[str] = frozenset()
) -> Iterator[Cause]:
    """What `stmt` may change, cause by cause (`sharing` is its scope's, at `stmt`)."""
    yield from _direct(ctx, stmt)
    for call in stmt.calls:
        yield from _Call(ctx, stmt, call, sharing, seen).causes()


def _direct(ctx: ModuleContext, stmt: Stmt) -> Iterator[Cause]:
    """What `stmt` changes itself: its targets' roots, an augmented target, what NumPy
    writes into (`Stmt.mutates`)."""
    direct = set(stmt.mutates)
    node = stmt.node
    target = node.target if type(node) is cst.AugAssign else None
    if type(target) is cst.Name and model(ctx).value_of(stmt, target).kind not in _IMMUTABLE:
        direct.add(target.value)  # `a += v`: a list or a NumPy array, changed in place
    if direct:
        yield Cause(frozenset(direct), "`{name}` changes inside the loop")


class _Call:
    """The causes of one call."""

    def __init__(
        self, ctx: ModuleContext, stmt: Stmt, call: cst.Call, sharing: Sharing, seen: frozenset
    ) -> None:
        self.ctx, self.stmt, self.call, self.sharing, self.seen = ctx, stmt, call, sharing, seen
        self.code = ctx.code(call.func)

    def causes(self) -> Iterator[Cause]:
        func = self.call.func
        qual = self.ctx.qualify(func)
        if qual is not None:
            yield from self._qualified(qual)
        elif type(func) is cst.Attribute:
            yield from self._method(func)
        elif type(func) is cst.Name:
            yield from self._named(func.value)
        elif type(func) is cst.Call and self.ctx.qualify(func.func) in jax_api.TRACING_TRANSFORMS:
            yield from self._traced(func)  # `jax.grad(f)(x)`: `f` traced, `x` copied
        else:
            yield from self._unseen([func])

    # -- kinds of callee --------------------------------------------------------------------
    def _qualified(self, qual: str) -> Iterator[Cause]:
        found = project_function(self.ctx, qual)
        if found is not None:
            yield from self._summary(*found, foreign=qual.rpartition(".")[0])
        elif qual.startswith("numpy."):
            yield from self._numpy(qual)
        elif qual.startswith("jax."):
            if qual in jax_api.CALLING and qual not in jax_api.TRACING_TRANSFORMS:
                yield from self._calling()
        elif qual in python_api.WRITING_OPERATORS:
            yield self._passed(self._positional()[:1], "writes into it")
        elif not qual.startswith(("math.", "functools.partial", "operator.")):
            yield from self._unseen()

    def _numpy(self, qual: str) -> Iterator[Cause]:
        written = numpy_written(qual, self.call)
        if qual in numpy_api.CALLING_FUNCTIONS:
            yield from self._calling()
        elif written is None:
            yield self._passed(self._all(), "may change it")
        elif written:
            yield self._passed(written, "writes into it")

    def _method(self, func: cst.Attribute) -> Iterator[Cause]:
        kind = model(self.ctx).value_of(self.stmt, func.value).kind
        if is_at_update(func) or kind in _IMMUTABLE:
            return  # `x.at[i].set(v)`, a JAX array's or a string's method: a new value
        method = func.attr.value
        if method not in READ_ONLY_METHODS:
            root = self.sharing.shares(func.value).names()
            yield Cause(
                frozenset(root), f"`{self.ctx.code(self.call)}` may change `{{name}}` in place"
            )
        if kind is Kind.HOST_ARRAY:
            written = method_written(method, self.call.args)
            if written is None or written:
                yield self._passed(self._all() if written is None else written, "writes into it")
        elif kind not in (Kind.CONTAINER, Kind.PYTREE) or method not in _LIST_METHODS:
            yield from self._unseen()

    def _named(self, name: str) -> Iterator[Cause]:
        ctx = self.ctx
        fn = ctx.graph.resolve_function(name, self.stmt.scope)
        fn = fn or transformed_function(ctx, name) or _jitted_function(ctx, name)
        traced = any(j.name == name for j in jitted_callables(ctx))
        if fn is not None:
            yield from self._summary(ctx, fn, traced=traced)
        elif traced:
            return  # a compiled callable of a function autoopt cannot see: traced
        elif name in ctx.graph.classes:
            yield from self._constructor(name)
        elif name in ctx.per_module(_bound_names):
            yield from self._unseen([self.call.func])
        elif name in python_api.WRITING_BUILTINS:
            yield self._passed(self._positional()[:1], "writes into it")
        elif name in python_api.CALLING_BUILTINS:
            yield from self._calling()
        elif name not in _READING_BUILTINS:
            yield from self._unseen([self.call.func])

    def _traced(self, transform: cst.Call) -> Iterator[Cause]:
        """`T(f)(...)`: JAX hands `f` tracers, never the arguments' objects; a module
        function `f` may still change outer objects as it is traced."""
        fn = self._function(transform.args[0].value) if transform.args else None
        if fn is not None:
            yield from self._summary(self.ctx, fn, traced=True)

    def _calling(self) -> Iterator[Cause]:
        """A library call that calls the function it is given (its first argument, or its
        `key=`), on the others: what that function may do."""
        first = self._positional()[:1]
        given = first + [a.value for a in self.call.args if a.keyword and a.keyword.value == "key"]
        if not all(self._harmless(g) for g in given):
            yield from self._unseen(given)

    def _harmless(self, expr: cst.BaseExpression) -> bool:
        """A function that changes nothing: a lambda of operators (no call, no `:=`), a
        module function that writes nothing, a NumPy or JAX function that writes nothing."""
        if type(expr) is cst.Lambda:
            return not any(type(n) in (cst.Call, cst.NamedExpr) for n in walk(expr.body))
        fn = self._function(expr)
        if fn is not None:
            return writes(self.ctx, fn) == Writes()
        qual = self.ctx.qualify(expr) or ""
        if qual.startswith("jax."):
            return qual not in jax_api.CALLING
        return qual.startswith("numpy.") and numpy_written(qual, cst.Call(expr)) == []

    def _function(self, expr: cst.BaseExpression | None) -> Function | None:
        if type(expr) is not cst.Name:
            return None
        return self.ctx.graph.resolve_function(expr.value, self.stmt.scope)

    def _summary(
        self, ctx: ModuleContext, fn: Function, foreign: str = "", traced: bool = False
    ) -> Iterator[Cause]:
        """A function's writes, seen from this call (`foreign`: the module of another file;
        `traced`: a jitted function, whose arguments reach it as tracers)."""
        if _key(ctx, fn) in self.seen:
            yield from self._unseen()  # a call back into a function being summarised
            return
        done = writes(ctx, fn, self.seen) if self.seen else writes(ctx, fn)
        for param in sorted(done.params) if not traced else ():
            yield self._passed(self._bound(fn, param), "may change it")
        for param in sorted(done.called) if not traced else ():
            held = {n for e in self._bound(fn, param) for n in self._held_by(e)}
            yield Cause(
                frozenset(held), f"the loop passes `{{name}}` to `{self.code}`, which calls it"
            )
        outer = done.outer | done.rebinds
        if foreign and outer:
            outer = frozenset(self._imported_from(foreign, outer))
        if outer:
            yield Cause(outer, f"`{self.code}` changes `{{name}}`")
        if done.unseen and not traced:  # traced: it runs on tracers, at trace time
            yield Cause(frozenset(), "", done.unseen)

    def _bound(self, fn: Function, param: str) -> list[cst.BaseExpression]:
        """The arguments bound to `param` of `fn` (every one, for `*args` or `**kwargs`)."""
        params = fn.node.params
        variadic = {
            p.name.value for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param
        }
        if param in variadic:
            return self._all()
        expr = CallSite(self.stmt, self.call, fn).argument(fn.params.index(param), param)
        return [expr] if expr is not None else []

    def _constructor(self, name: str) -> Iterator[Cause]:
        """A class of the module: its `__init__` (`__post_init__`, `__new__`) as calls
        that may change every argument; a base autoopt cannot see runs unseen code."""
        ctx = self.ctx
        methods = [ctx.graph.functions.get(f"{name}.{m}") for m in python_api.TAKEN_OVER]
        for method in filter(None, methods):
            done = writes(ctx, method)
            if done.params - set(method.params[:1]):
                yield self._passed(self._all(), "may change it")
            if done.outer | done.rebinds:
                yield Cause(done.outer | done.rebinds, f"`{self.code}` changes `{{name}}`")
            if done.unseen:
                yield Cause(frozenset(), "", done.unseen)
        if not _plain_class(ctx, name):
            yield from self._unseen()

    # -- building causes ------------------------------------------------------------------
    def _passed(self, exprs: list[cst.BaseExpression], does: str) -> Cause:
        names = {n for e in exprs for n in self.sharing.shares(e).names()}
        return Cause(frozenset(names), f"the loop passes `{{name}}` to `{self.code}`, which {does}")

    def _unseen(self, called: Sequence[cst.BaseExpression] = ()) -> Iterator[Cause]:
        """Code autoopt cannot see: it may change what it is given, what the callables it
        is or calls hold (`called`), and what it can reach."""
        names = {n for e in self._all() for n in self.sharing.shares(e).names()}
        why = f"the loop passes `{{name}}` to `{self.code}`, which may change it"
        yield Cause(frozenset(names), why, self.code)
        held = {n for e in called for n in self._held_by(e)}
        calls = frozenset(e.value for e in called if type(e) is cst.Name)
        why = (
            f"the loop calls `{self.code}`, which may hold `{{name}}` (a bound method, a "
            "closure or a partial of it) and change it"
        )
        yield Cause(frozenset(held), why, calls=calls, held=True)

    def _held_by(self, expr: cst.BaseExpression) -> set[str]:
        """What calling `expr` may change: the objects the callable holds (a bound
        method's object, a closure's or a partial's), not the callable itself."""
        if type(expr) is cst.Name:
            return _holds(self.ctx, self.stmt.scope, expr.value, _MAX_HOPS)
        names = self.sharing.shares(expr).names() - {RETAINED}
        return names | {h for n in names for h in _holds(self.ctx, self.stmt.scope, n, _MAX_HOPS)}

    def _all(self) -> list[cst.BaseExpression]:
        return [a.value for a in self.call.args]

    def _positional(self) -> list[cst.BaseExpression]:
        return [a.value for a in self.call.args if a.keyword is None]

    def _imported_from(self, module: str, names: frozenset[str]) -> Iterator[str]:
        """This module's names for `names` of `module`, and for the module itself."""
        for local, qual in self.ctx.imports.bindings.items():
            parent, _, last = qual.rpartition(".")
            if qual == module or (parent == module and last in names):
                yield local


def _holds(ctx: ModuleContext, scope: str, name: str, hops: int) -> set[str]:
    """The names whose objects the value of `name` may hold, from what binds or fills it
    (`reset = buf.fill`, `hooks.append(buf.fill)`, `for hook in hooks`), in `scope` or at
    module level where `scope` does not bind it; `hops` bindings deep."""
    binders = [s for s in ctx.graph.scope_stmts(scope) if name in s.defs | s.mutates]
    fn = ctx.graph.functions.get(scope)
    if fn is not None and name not in fn.params and not any(name in s.defs for s in binders):
        binders += [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs | s.mutates]
    found: set[str] = set()
    for stmt in binders:
        sharing = scope_sharing(ctx, stmt.scope)
        sharing.at = stmt
        for value in _filled_with(stmt, name):
            found |= sharing.shares(value).names() - {RETAINED, name}
    if hops > 1:
        found |= {h for n in sorted(found) for h in _holds(ctx, scope, n, hops - 1)}
    return found - {name}


def _filled_with(stmt: Stmt, name: str) -> list[cst.BaseExpression]:
    """The expressions `stmt` puts into `name`: the value bound to it, iterated into it,
    stored into it (`name[k] = v`) or added by a method (`name.append(v)`)."""
    node = stmt.node
    if type(node) is cst.For:
        return [node.iter]
    if type(node) is cst.With:
        return [item.item for item in node.items]
    if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign) and node.value is not None:
        return [node.value]
    return [a.value for c in stmt.calls if mutating_call_target(c) == name for a in c.args]


def _jitted_function(ctx: ModuleContext, name: str) -> Function | None:
    return next((j.function for j in jitted_callables(ctx) if j.name == name), None)


def _bound_names(ctx: ModuleContext) -> set[str]:
    """Every name the module binds, parameters included (a builtin's name among them is not
    the builtin)."""
    bound = {n for s in ctx.graph.stmts for n in s.defs}
    return bound | {p for f in ctx.graph.functions.values() for p in f.params}


def _plain_class(ctx: ModuleContext, name: str) -> bool:
    """A class of the module whose bases are the module's own classes or a `NamedTuple`."""
    node = next(
        (s.node for s in ctx.graph.stmts if type(s.node) is cst.ClassDef and name in s.defs),
        None,
    )
    if node is None:
        return False
    for base in node.bases:  # type: ignore[union-attr]
        qual = ctx.qualify(base.value) or ""
        named = type(base.value) is cst.Name and base.value.value in ctx.graph.classes
        if not (named or qual in python_api.NAMEDTUPLE_BASES or ctx.code(base.value) == "object"):
            return False
    return True


# -- loops --------------------------------------------------------------------------------
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
    """A function of the module that changes a global among `held` in place, or rebinds
    one of `names`: it may run from anywhere."""
    if loop.scope == MODULE:
        return None  # the module's functions run during the loop only if it calls them
    outside = held - _locals(ctx, loop.scope)
    for other in ctx.graph.functions.values():
        done = writes(ctx, other)
        changed = sorted(outside & (done.outer | (done.rebinds & names)))
        if changed:
            return f"`{other.name}` changes `{changed[0]}`"
    return None


def _param_globals(ctx: ModuleContext, loop: Loop, held: set[str]) -> set[str]:
    """The module-level names the parameters among `held` may hold, from the arguments of
    the function's call sites (any mutable global, where it may be called from elsewhere)."""
    fn = ctx.graph.functions[loop.scope]
    found: set[str] = set()
    for param in sorted(held & set(fn.params)):
        found |= _sources(ctx, fn, param, _MAX_HOPS)
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
        if values.defined(s, n).kind in _MUTABLE
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
