"""What code may change in place: per statement (`direct_causes`, what it runs:
`run_causes`) and per function (`writes`). The layer below `facts/mutation.py`, the
authority on host values changing or being read while a loop runs.

A JAX array never changes in place; a NumPy array, a list, a dict or any other object may.
Each layer over-approximates, and what it cannot see counts as a change.

**A statement** may change in place the objects of:

- its targets' roots (`a[i] = v`, `a.flat[i] = v`, `a.x = v`, `del a[k]`; what a computed
  root may return, `np.asarray(a)[:] = v`) and an augmented target that may be mutable
  (`a += v` extends a list, writes a NumPy array in place; a JAX array or a number is
  rebound);
- the receiver of every method not known to only read it (`a.fill(v)`, `a.sort()`,
  `q.extend(r)`, `obj.step()`), unless it is a JAX array or a string;
- what a NumPy call writes, by the tables of `overlays/numpy.py` (`core/exprs.py`,
  `numpy_written`): `out=`, a ufunc's positional outputs (`np.multiply(a, b, out)`),
  another function's positional `out`, the first argument of `np.copyto`,
  `np.ndarray.fill(a, v)`, `np.subtract.at`, `np.nan_to_num(x, copy=False)`; an array
  method's `out` (`a.sum(0, None, out)`); any argument where the tables do not reach;
  the first argument of `setattr` and of `operator.iadd`/`operator.setitem`/...;
- every argument of a library call that calls a function it is given (`map`,
  `np.vectorize`, `jax.debug.callback`, tree maps), unless that function provably
  changes nothing;
- what a function of the module or of another file of the project changes: its
  parameters' objects (mapped to the arguments), what the callables it calls hold, and
  outer names (mapped to this module's imports of them); a decorator other than a JAX
  transform or one that keeps the function (`functools.lru_cache`, `staticmethod`)
  wraps it in code autoopt cannot see;
- for code autoopt cannot see (an unknown function, a method of an unknown object, a
  callable held in a variable: a bound method `reset = buf.fill`, a lambda, a
  `functools.partial`, also kept in a list and called as `for hook in hooks: hook()`):
  every argument, the objects the callable holds (`holds`: what binds or fills the
  variable), and whatever that code can reach (the loop's question, `facts/mutation.py`);
- what a generator or an iterator it iterates holds, and what was handed to code autoopt
  cannot see (`RETAINED`): its code runs on every step of a `for` header, a comprehension,
  `list(gen)`, `next(it)`;
- every variable, by name, for `exec`, `eval`, `globals()`, `locals()`, `vars()`.

Code JAX traces (a jitted function, `jax.grad(f)(x)`, a transform's function) receives
tracers, never the arguments' objects: of it, only what a module function changes of
outer names counts; code autoopt cannot see inside it runs on tracers, at trace time, and
is not taken to reach anything.

**A function** (`writes`, once per function): the parameters and outer names (globals,
closure cells, what a changed parameter's default reads: `buf=BUF`) whose objects its
statements change, through the aliases inside it (`b = a; b[:] = 0`, `for row in a:
row[:] = 0`, a view `a.reshape(-1)`: `facts/aliases.py`, an over-approximation: what an
object holds counts as changed with it), the parameters it calls, the global and nonlocal
names it rebinds, and whether it calls code autoopt cannot see. A call back into a
function being summarised counts as code autoopt cannot see.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core import exprs
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import decorated_traced, transform_of
from autoopt.analysis.core.exprs import (
    base_name,
    is_at_update,
    method_written,
    mutating_call_target,
    numpy_written,
    read_names,
    scope_nodes,
)
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.implicit_calls import implicit_calls
from autoopt.analysis.core.jitted import jitted_callables, own_exprs
from autoopt.analysis.core.project import project_function
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.aliases import RETAINED, Sharing, scope_sharing
from autoopt.analysis.facts.library_objects import pure_calls_only
from autoopt.analysis.facts.purity import transformed_function
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import optax as optax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Methods that read their receiver without changing it.
READ_ONLY_METHODS = jax_api.READ_METHODS | python_api.READ_METHODS
#: Kinds whose objects never change in place.
IMMUTABLE = (Kind.ARRAY, Kind.STRING, Kind.SCALAR, Kind.SHAPE, Kind.DTYPE, Kind.NONE)
#: Kinds whose special methods (`__iter__`, `__bool__`, `__getitem__`, `__add__`, ...)
#: only read: builtins, arrays, literal containers, pytrees of arrays, functions and
#: classes, modules (an attribute read).
QUIET = (*IMMUTABLE, Kind.HOST_ARRAY, Kind.CONTAINER, Kind.PYTREE, Kind.CALLABLE, Kind.MODULE)
_LIST_METHODS = python_api.MUTATING_METHODS | python_api.READ_METHODS
_READING_BUILTINS = (
    python_api.PURE_BUILTINS | python_api.READ_ONLY_BUILTINS | set(python_api.IO_BUILTINS)
) - python_api.CALLING_BUILTINS
HOPS = 3  # bindings followed to find what a variable holds

#: Transforms whose traced function receives copies of the arguments (JAX's, and
#: equinox's filtered ones; not `nnx.jit`, which updates the modules it is given).
_COPYING_TRANSFORMS = jax_api.TRACING_TRANSFORMS | eqx_api.TRANSFORMS


@dataclass(frozen=True)
class Cause:
    """Names whose objects one call or statement may change, and why (`{name}` is the one
    a question hits); `unseen` names the code autoopt cannot see that it runs, `calls` the
    variables whose values it calls (a parameter called: what its argument holds)."""

    names: frozenset[str]
    why: str
    unseen: str = ""
    calls: frozenset[str] = frozenset()  # the variables whose callables it calls
    #: reported after the rest: changed only as what a callable holds, or by a special
    #: method Python calls implicitly (a generator's own cause names what it holds)
    held: bool = False


@dataclass(frozen=True)
class Writes:
    """What a function may change: the objects of parameters and outer names, the global
    or nonlocal names it rebinds, and the unseen code it calls ("" for none)."""

    params: frozenset[str] = frozenset()
    outer: frozenset[str] = frozenset()
    rebinds: frozenset[str] = frozenset()
    unseen: str = ""
    called: frozenset[str] = frozenset()  # parameters it calls


def writes(ctx: ModuleContext, fn: Function) -> Writes | None:
    """What `fn` may change (once per function); None while it is being summarised (a
    call back into it, from a cycle of callees)."""
    if fn.qualname in ctx.per_module(_busy):
        return None
    return ctx.per_function(_writes, fn)


def _busy(ctx: ModuleContext) -> set[str]:
    """The functions being summarised now (one set per module)."""
    return set()


def _writes(ctx: ModuleContext, fn: Function) -> Writes:
    busy = ctx.per_module(_busy)
    busy.add(fn.qualname)
    try:
        return _summarise(ctx, fn)
    finally:
        busy.discard(fn.qualname)


def _summarise(ctx: ModuleContext, fn: Function) -> Writes:
    sharing = scope_sharing(ctx, fn.qualname)
    changed: set[str] = set()
    called: set[str] = set()
    unseen = ""
    stmts = ctx.graph.scope_stmts(fn.qualname)
    for stmt in stmts:
        sharing.at = stmt
        for cause in causes(ctx, stmt, sharing):
            changed |= cause.names
            called |= cause.calls
            unseen = unseen or cause.unseen
    reach = sharing.component(changed, weak=True) - {RETAINED}
    declared = fn.globals | fn.nonlocals
    bound = {n for s in stmts for n in s.defs}
    params = set(fn.params)
    kept = {n for p in reach & params for n in _default_roots(fn, p)}  # `buf=BUF`
    return Writes(
        params=frozenset(reach & params),
        outer=frozenset(reach - (bound - declared) - params | kept),
        rebinds=frozenset(bound & declared),
        unseen=unseen,
        called=frozenset(sharing.component(called, weak=True) & params),
    )


def _default_roots(fn: Function, param: str) -> Iterator[str]:
    """The variables a parameter's default reads (`buf=BUF`): the function keeps that
    object, and changes it when it changes the parameter."""
    params = fn.node.params
    for p in (*params.posonly_params, *params.params, *params.kwonly_params):
        if p.name.value == param and p.default is not None:
            yield from (n.value for n in read_names(p.default))


def causes(ctx: ModuleContext, stmt: Stmt, sharing: Sharing) -> Iterator[Cause]:
    """What `stmt` may change, cause by cause (`sharing` is its scope's, at `stmt`)."""
    yield from direct_causes(ctx, stmt, sharing)
    yield from run_causes(ctx, stmt, sharing)


def run_causes(ctx: ModuleContext, stmt: Stmt, sharing: Sharing) -> Iterator[Cause]:
    """What the code `stmt` runs may change: its calls, the iterators it iterates."""
    yield from _iterations(ctx, stmt, sharing)
    yield from _implicit(ctx, stmt, sharing)
    for call in stmt.calls:
        yield from _Call(ctx, stmt, call, sharing).causes()


def direct_causes(ctx: ModuleContext, stmt: Stmt, sharing: Sharing) -> Iterator[Cause]:
    """What `stmt` changes itself: its targets' roots (`a[i] = v`; the objects a computed
    root may return, `np.asarray(a)[:] = v`), an augmented target, what NumPy writes into
    (`Stmt.mutates`)."""
    direct = {n for n in stmt.mutates if not _static_object(ctx, stmt, n)}
    node = stmt.node
    target = node.target if type(node) is cst.AugAssign else None
    if type(target) is cst.Name and model(ctx).value_of(stmt, target).kind not in IMMUTABLE:
        direct.add(target.value)  # `a += v`: a list or a NumPy array, changed in place
    for root in _computed_roots(_targets(node)):
        direct |= sharing.shares(root).names() - {RETAINED}
    if direct:
        yield Cause(frozenset(direct), "`{name}` changes inside the loop")


def _static_object(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name` holds an immutable library object (an optax optimizer,
    `overlays.STATIC_CLASSES`) that `stmt` only calls pure methods of (`opt.update(...)`,
    which the graph reads like `dict.update`)."""
    value = model(ctx).name(stmt, name)
    cls = value.detail if value.kind is Kind.OBJECT else None
    return cls in overlays.STATIC_CLASSES and pure_calls_only(ctx, stmt, name, cls or "")


def _targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    if type(node) is cst.Assign:
        return [t.target for t in node.targets]
    if type(node) in (cst.AugAssign, cst.AnnAssign, cst.Del, cst.For):
        return [node.target]  # type: ignore[attr-defined]
    return []


def _computed_roots(targets: list[cst.BaseExpression]) -> Iterator[cst.BaseExpression]:
    """The roots of subscript and attribute targets that are not a name (a call)."""
    for target in targets:
        if type(target) in (cst.Tuple, cst.List):
            yield from _computed_roots([e.value for e in target.elements])  # type: ignore[attr-defined]
        elif type(target) is cst.StarredElement:
            yield from _computed_roots([target.value])
        elif type(target) in (cst.Subscript, cst.Attribute):
            root = target
            while type(root) in (cst.Subscript, cst.Attribute):
                root = root.value  # type: ignore[attr-defined]
            if type(root) is not cst.Name:
                yield root


class _Call:
    """The causes of one call."""

    def __init__(self, ctx: ModuleContext, stmt: Stmt, call: cst.Call, sharing: Sharing) -> None:
        self.ctx, self.stmt, self.call, self.sharing = ctx, stmt, call, sharing
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
        elif type(func) is cst.Call and self.ctx.qualify(func.func) in _COPYING_TRANSFORMS:
            yield from self._traced(func)  # `jax.grad(f)(x)`: `f` traced, `x` copied
        elif type(func) is cst.Call and self.ctx.qualify(func.func) in overlays.JIT_SPELLINGS:
            yield from self._traced(func)  # `nnx.jit(f)(m)`: `f` traced, as by `jax.jit`,
            yield self._passed(self._all(), "updates the nnx modules it is given in place")
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
        elif qual in overlays.JIT_SPELLINGS:
            return  # `eqx.filter_jit(f)`, like `jax.jit(f)`, wraps `f` without changing it
        elif qual in optax_api.PURE_CALLS:
            return  # `optax.apply_updates(params, updates)`: computes new arrays
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
        value = model(self.ctx).value_of(self.stmt, func.value)
        kind, method = value.kind, func.attr.value
        if is_at_update(func) or kind in IMMUTABLE:
            return  # `x.at[i].set(v)`, a JAX array's or a string's method: a new value
        if kind is Kind.OBJECT and f"{value.detail}.{method}" in overlays.PURE_METHODS:
            return  # `opt.update(grads, state)` of an optax optimizer: a pure function
        if method not in READ_ONLY_METHODS:
            root = self._objects(func.value)
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
        fn = fn or transformed_function(ctx, name) or jitted_function(ctx, name)
        traced = any(j.name == name for j in jitted_callables(ctx))
        if fn is not None:
            yield from self._summary(ctx, fn, traced=traced)
        elif traced:
            return  # a compiled callable of a function autoopt cannot see: traced
        elif name in ctx.graph.classes:
            yield from self._constructor(name)
        elif name in ctx.per_module(bound_names):
            yield from self._unseen([self.call.func])
        elif name in python_api.INTROSPECTION_BUILTINS:  # `exec("buf[:] = 0")`
            why = f"`{self.ctx.code(self.call)}` may change `{{name}}` by its name"
            yield Cause(frozenset(ctx.per_module(bound_names)), why, self.code)
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
            return writes(self.ctx, fn) == Writes()  # None (being summarised) is not
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
        traced = traced or decorated_traced(ctx, fn)
        done = writes(ctx, fn)
        if done is None or (not traced and _opaque_decorator(ctx, fn)):
            yield from self._unseen()  # a call back into it, or into a wrapper
            if done is None:
                return
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
        """What `param` of `fn` receives: its argument (every one, for `*args` or
        `**kwargs`, or behind a starred argument; none, for its default: `Writes.outer`)."""
        params = fn.node.params
        variadic = {
            p.name.value for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param
        }
        if param in variadic or any(a.star for a in self.call.args):
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
            if done is None:
                yield from self._unseen()
                continue
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
        names = {n for e in exprs for n in self._objects(e)}
        return Cause(frozenset(names), f"the loop passes `{{name}}` to `{self.code}`, which {does}")

    def _unseen(self, called: Sequence[cst.BaseExpression] = ()) -> Iterator[Cause]:
        """Code autoopt cannot see: it may change what it is given, what the callables it
        is or calls hold (`called`), and what it can reach."""
        names = {n for e in self._all() for n in self._objects(e)}
        why = f"the loop passes `{{name}}` to `{self.code}`, which may change it"
        yield Cause(frozenset(names), why, self.code)
        if called:
            held = {n for e in called for n in self._held_by(e)}
            calls = frozenset(e.value for e in called if type(e) is cst.Name)
            why = (
                f"the loop calls `{self.code}`, which may hold `{{name}}` (a bound method, a "
                "closure or a partial of it) and change it"
            )
            yield Cause(frozenset(held), why, calls=calls, held=True)

    def _objects(self, expr: cst.BaseExpression) -> set[str]:
        return objects(self.ctx, self.stmt, self.sharing, expr)

    def _held_by(self, expr: cst.BaseExpression) -> set[str]:
        return held_by(self.ctx, self.stmt, self.sharing, expr)

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


def held_by(ctx: ModuleContext, stmt: Stmt, sharing: Sharing, expr: cst.BaseExpression) -> set[str]:
    """What calling (or iterating) `expr` may change: the objects the callable holds (a
    bound method's object, a closure's, a partial's, a generator's), not itself."""
    if type(expr) is cst.Name:
        return holds(ctx, stmt.scope, expr.value, HOPS)
    names = sharing.shares(expr).names() - {RETAINED}
    return names | {h for n in names for h in holds(ctx, stmt.scope, n, HOPS)}


def _iterations(ctx: ModuleContext, stmt: Stmt, sharing: Sharing) -> Iterator[Cause]:
    """Iterating a generator or an iterator runs its code, on what it holds and what was
    handed to code autoopt cannot see (`RETAINED`): a `for` header's, a comprehension's,
    a builtin's that consumes its argument (`list(gen)`, `next(it)`)."""
    node = stmt.node
    iterated = [node.iter] if type(node) is cst.For else []
    for root in own_exprs(stmt):
        for inner in scope_nodes(root):
            if type(inner) is cst.CompFor:
                iterated.append(inner.iter)
    for call in stmt.calls:
        func = call.func
        if type(func) is cst.Name and func.value in python_api.ITERATING_BUILTINS:
            iterated += [a.value for a in call.args]
    values = model(ctx)
    for expr in iterated:  # a call's own code is its own cause; what it returns is not
        if type(expr) is cst.Call or type(expr) is cst.GeneratorExp:
            continue
        if values.value_of(stmt, expr).kind in (Kind.OBJECT, Kind.UNKNOWN):
            code = ctx.code(expr)
            why = (
                f"the loop iterates `{code}`, which may hold `{{name}}` (a generator or an "
                "iterator of it) and change it"
            )
            held = held_by(ctx, stmt, sharing, expr) | {RETAINED}  # and what it was handed
            calls = frozenset({expr.value}) if type(expr) is cst.Name else frozenset()
            yield Cause(frozenset(held), why, calls=calls, held=True)


def _implicit(ctx: ModuleContext, stmt: Stmt, sharing: Sharing) -> Iterator[Cause]:
    """A special method Python calls by itself (`core/implicit_calls.py`: `for _ in
    loader`, `while feeder:`, `ds[i]`, `a + b`, `len(x)`, `f"{x}"`, `obj.attr`) on a value
    not proven of a type whose special methods change nothing (`QUIET`): code autoopt
    does not follow, as a method call of it (`_Call._method`), that may change the value
    and what it is handed (but a JAX array, a number), and reach what unseen code
    reaches."""
    for found in implicit_calls(stmt):
        if _quiet(ctx, stmt, found.operand):
            continue
        values = model(ctx)
        given = [e for e in found.given if values.value_of(stmt, e).kind not in IMMUTABLE]
        names = {n for e in (found.operand, *given) for n in objects(ctx, stmt, sharing, e)}
        code = f"{ctx.code(found.operand)}.{found.method}"
        why = f"Python calls `{code}` implicitly, which may change `{{name}}`"
        yield Cause(frozenset(names), why, code, held=True)


def _quiet(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> bool:
    """A value whose special methods only read: of a `QUIET` kind, a library object
    nothing changes (`overlays.STATIC_CLASSES`: an optax optimizer, a named tuple of
    functions), or what a builtin returns of a builtin type (`range(n)`, `enumerate(xs)`)."""
    value = model(ctx).value_of(stmt, expr)
    if value.kind in QUIET:
        return True
    if value.kind is Kind.OBJECT and value.detail in overlays.STATIC_CLASSES:
        return True
    func = expr.func if type(expr) is cst.Call else None
    if type(func) is not cst.Name or func.value not in python_api.BUILTIN_RESULTS:
        return False
    return func.value not in ctx.per_module(bound_names)


def objects(ctx: ModuleContext, stmt: Stmt, sharing: Sharing, expr: cst.BaseExpression) -> set[str]:
    """The names whose objects `expr` may be or hold (`facts/aliases.py`), and its root,
    be it a class or a module (`Cfg.BUF`, `sensors.FRAME`; not a function, nor JAX's or
    NumPy's modules)."""
    names = sharing.shares(expr).names()
    root = base_name(expr)
    if root is not None and _holds_data(ctx, stmt, root):
        names.add(root)
    return names


def _holds_data(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    if ctx.graph.resolve_function(name, stmt.scope) is not None:
        return False
    qual = ctx.imports.bindings.get(name, "")
    return qual.split(".")[0] not in ("jax", "numpy", "math")


def holds(ctx: ModuleContext, scope: str, name: str, hops: int) -> set[str]:
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
        found |= _unpacked_beside(stmt, name)
    if hops > 1:
        found |= {h for n in sorted(found) for h in holds(ctx, scope, n, hops - 1)}
    return found - {name}


def _unpacked_beside(stmt: Stmt, name: str) -> set[str]:
    """The other names one unpacking binds with `name` (`refill, buf = make_sampler()`,
    `for step, buf in pairs`): parts of one value, which may hold each other's objects (a
    closure returned beside the buffer it refills)."""
    node = stmt.node
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) is cst.For:
        targets = [node.target]
    elif type(node) is cst.With:
        targets = [item.asname.name for item in node.items if item.asname is not None]
    else:
        return set()
    packed = [t for t in targets if type(t) is cst.Tuple or type(t) is cst.List]
    together = [set(exprs.bound_names(t)) for t in packed]
    return {n for names in together if name in names for n in names} - {name}


def _filled_with(stmt: Stmt, name: str) -> list[cst.BaseExpression]:
    """The expressions `stmt` puts into `name`: the value bound to it, iterated into it,
    stored into it (`name[k] = v`) or added by a method (`name.append(v)`)."""
    node = stmt.node
    if type(node) is cst.For:
        return [node.iter]
    if type(node) is cst.With:
        return [item.item for item in node.items]
    if type(node) is cst.Assign or type(node) is cst.AugAssign:
        return [node.value]
    if type(node) is cst.AnnAssign and node.value is not None:
        return [node.value]
    return [a.value for c in stmt.calls if mutating_call_target(c) == name for a in c.args]


def jitted_function(ctx: ModuleContext, name: str) -> Function | None:
    return next((j.function for j in jitted_callables(ctx) if j.name == name), None)


def bound_names(ctx: ModuleContext) -> set[str]:
    """Every name the module binds, parameters included (a builtin's name among them is not
    the builtin)."""
    bound = {n for s in ctx.graph.stmts for n in s.defs}
    return bound | {p for f in ctx.graph.functions.values() for p in f.params}


def _opaque_decorator(ctx: ModuleContext, fn: Function) -> bool:
    """Whether a decorator other than a JAX transform or one that keeps the function's
    behaviour (`functools.lru_cache`, `staticmethod`) wraps `fn`: calling it runs the
    wrapper, code autoopt does not summarise."""
    for decorator in fn.node.decorators:
        expr = decorator.decorator
        qual = ctx.qualify(expr.func if type(expr) is cst.Call else expr) or ctx.code(expr)
        if not transform_of(ctx, expr) and qual not in python_api.TRANSPARENT_DECORATORS:
            return True
    return False


def _plain_class(ctx: ModuleContext, name: str) -> bool:
    """A class of the module whose bases are the module's own classes or a `NamedTuple`."""
    node = next(
        (s.node for s in ctx.graph.stmts if type(s.node) is cst.ClassDef and name in s.defs),
        None,
    )
    if node is None:
        return False
    for base in node.bases:
        qual = ctx.qualify(base.value) or ""
        named = type(base.value) is cst.Name and base.value.value in ctx.graph.classes
        if not (named or qual in python_api.NAMEDTUPLE_BASES or ctx.code(base.value) == "object"):
            return False
    return True
