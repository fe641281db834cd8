"""AO301 loop-invariant-transfer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis.plans.hoist_reach import hoist_doubt
from autoopt.analysis.plans.sliced import sliced_index, whole_transfer
from autoopt.analysis.semantic import (
    MODULE,
    Jitted,
    Loop,
    May,
    ModuleContext,
    Place,
    Placement,
    Stmt,
    bound_names,
    read_names,
    semantic,
    walk,
)
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace, RequireImport
from autoopt.rewrite.jit import claim_name
from autoopt.rules.base import Rule
from autoopt.rules.loop_owner import step_owned

_TRANSFERS = ("jax.numpy.asarray", "jax.numpy.array", "jax.device_put")
_SAFE = Applicability.SAFE
_UNSAFE = Applicability.UNSAFE


class LoopInvariantTransfer(Rule):
    """
    ## What it does
    Finds host-to-device transfers inside a `for`/`while` loop whose data does
    not change in the loop: `jnp.asarray(x)`, `jnp.array(x)`, `jax.device_put(x)`,
    and NumPy arrays passed straight into a jitted function. It moves the
    transfer before the loop, once, under a fresh name (`x_dev`), and uses that
    name in the loop. `jnp.asarray(x)` and `jnp.array(x)` of a NumPy array become
    `jax.device_put(x)` (the same dtype and values); any other form, such as
    `jnp.asarray(x, dtype=jnp.float16)` or a value autoopt cannot place, is
    hoisted exactly as written.

    A transfer of a part of a loop-invariant NumPy array (a minibatch,
    `jnp.asarray(X[i * B : (i + 1) * B])`, or `X[...]` passed straight into a jitted
    function) puts the whole array on the device once, before the loop
    (`X_dev = jnp.asarray(X)`, as the transfer was written), and takes the part there
    (`X_dev[i * B : (i + 1) * B]`). The whole array then stays in device memory for
    as long as the loop runs; the message says so.

    ## Why is this bad?
    JAX copies host data to the device on every call: it is never zero-copy.
    A jitted function called in a loop with the same NumPy array pays the full
    copy on every iteration. Measured on CPU with light compute: 1.7x for a
    40 KB argument, 4x for 4 MB and 21x for 40 MB once the copy is made once.

    ## Fix safety
    **Safe** when every name the transfer reads is loop-invariant and every call the
    hoisted array reaches is proven not to donate it; **unsafe** when it could be
    donated (the loop calls a function with buffer donation, the value is replaced by
    a call's output each iteration, or a call that receives it donates or may: a jit
    spread with `**options`, a step looked up in a dict, a parameter, a decorator
    autoopt cannot see through, a `.lower(...).compile()` or `functools.partial(jax.jit,
    ...)(f)` result): one shared array would then be deleted by the first call. Data
    that changes per iteration is never hoisted and not reported. A part taken with an integer index
    or an array of indices (`X[i]`, `X[idx]`) is **unsafe**: nothing proves the
    indices in range, and NumPy raises for one out of range where a JAX array clamps
    it (and returns the last row). A transfer the original may not run when the loop is
    reached (under `if`, in a `try:` body, on one side of `and`/`or` or `a if c else b`, in
    a comprehension, after a `break`/`continue`/`return`/`raise` that may skip it, in a loop
    that may run zero times) is **unsafe** unless its operand is an array: hoisted, it
    would run anyway, and `jnp.asarray(None)` or a ragged list raises there.

    - every name the transfer reads stays the same in the loop: no statement rebinds it
      (`analysis/facts/invariance.py`), and nothing that runs during the loop may change
      its object in place (NumPy's in-place spellings, positional `out` included; aliases,
      views, bound methods and closures of it; helpers in any file of the project; code
      autoopt cannot see that may reach it): `analysis/facts/mutation.py`
    - a special method Python calls by itself is such code (`for _ in loader`,
      `enumerate(loader)`, `while feeder:`, `ds[i]`, `len(ds)`, `k in ds`, `a + b`,
      `obj.attr` of a property, `f"{obj}"`, `with obj:`, unpacking, hashing), unless the
      value is proven a builtin, an array, a literal container or a module, whose special
      methods only read: of any other value (a class of the program, a value of unknown
      type, `range(n)` of a parameter `n`) it may change the object, what it is handed
      and what code autoopt cannot see reaches: `analysis/core/implicit_calls.py`,
      `analysis/facts/writes.py`
    - the data lives on the host (NumPy) or is a transfer: `analysis/values/placement.py`
    - the hoisted transfer cannot fail where the original would not run it: its operand is
      a NumPy or JAX array and its other arguments constants (`dtype=jnp.float16`), or it
      runs on the first iteration of every loop down from the one it leaves, nothing before
      it can skip it, and each such loop is proven to run (`while True:`, a non-empty
      literal, a `range` with proven bounds): `analysis/plans/hoist_reach.py`
    - no call in the loop donates the hoisted array: `analysis/core/jitted.py`
      (the jit options); every call it reaches, through the names it is bound to, the
      containers it is put in and the functions of the module it is handed to, is
      proven not to donate it (a `jax.jit` whose options are written out and name no
      donation, a JAX or NumPy function, a builtin, a method of an array or of a list,
      a function of the module seen in full), and it is not stored in an attribute or
      an item, yielded or read by another function: `analysis/facts/call_donation.py`
    - one owner per loop, the statements of an AO103 step or an AO501 `vmap` are
      theirs: `rules/loop_owner.py`
    - for a part of an array (`X[...]`): `X` alone meets the premises above; it is a
      NumPy array (not a list of arrays, not a loader's value of unknown kind); the
      transfer is `jnp.asarray`/`jnp.array`/`jax.device_put` of the part with no dtype
      or device, or a jitted call's argument, which convert the whole as they convert
      a part and give a JAX array either way (the code after it sees the same kind of
      value); every index is a slice whose bounds are Python ints, with no step,
      which a JAX array clips as NumPy does: `analysis/plans/sliced.py`
    """

    id = "AO301"
    name = "loop-invariant-transfer"
    summary = "Host-to-device transfer of loop-invariant data inside a loop"
    fixes = (
        "moves `jnp.asarray`/`jax.device_put` of loop-invariant host data (and NumPy arguments "
        "of jitted calls) before the loop, once; the whole array, for a part sliced from it "
        "(`X[i : i + B]`), then sliced on the device"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        hoists = _Hoists(ctx)
        places = semantic(ctx).placement()
        jitted = {j.name: j for j in semantic(ctx).jitted_callables()}
        compiled = {j.function.qualname for j in jitted.values() if j.function}
        for stmt in ctx.graph.stmts:
            if not stmt.loops or stmt.scope in compiled or step_owned(ctx, stmt):
                continue
            for expr, source in _candidates(ctx, places, stmt, jitted):
                finding = self._finding(ctx, places, stmt, expr, source, jitted, hoists)
                if finding is not None:
                    yield finding

    def _finding(self, ctx, places, stmt, expr, source, jitted, hoists) -> Finding | None:
        reads = {n.value for n in read_names(expr)} - _module_names(ctx)
        loop = _outermost_invariant(ctx, stmt, reads)
        if loop is None:
            if type(source) is not cst.Subscript:
                return None
            return self._sliced(ctx, places, stmt, expr, source, jitted, hoists)
        if places.place_of(stmt, source) is Place.DEVICE:
            return None
        if (inside := self._inside_with(ctx, loop, expr)) is not None:
            return inside
        line = ctx.span(loop.node).line
        hoisted, imports = _hoisted_text(ctx, places, stmt, expr, source)
        name, edits = hoists.edits(loop, hoisted, ctx.code(source))
        edits += [*imports, Replace(expr, lambda _node, n=name: cst.Name(n))]  # type: ignore[misc]  # a lambda with a default
        fix, why = _hoist_risk(ctx, stmt, expr, source, loop, jitted)
        message = (
            f"`{ctx.code(expr)}` copies the same data to the device on every iteration of the "
            f"loop at line {line}: transfer it once before the loop (`{name} = {hoisted}`)"
        )
        title = f"Move the transfer of `{ctx.code(source)}` before the loop"
        return self.finding(ctx, expr, message + why, fix, edits, title=title)

    def _sliced(
        self,
        ctx: ModuleContext,
        places: Placement,
        stmt: Stmt,
        expr: cst.BaseExpression,
        source: cst.Subscript,
        jitted: dict[str, Jitted],
        hoists: _Hoists,
    ) -> Finding | None:
        """`jnp.asarray(X[i : i + B])`: the whole of a loop-invariant NumPy array goes to
        the device once, before the loop, and each iteration slices it there."""
        sliced = sliced_index(ctx, places, stmt, expr, source)
        if sliced is None:
            return None
        base, index = sliced
        loop = _outermost_invariant(ctx, stmt, {base.value})
        if loop is None:
            return None
        if (inside := self._inside_with(ctx, loop, expr)) is not None:
            return inside
        hoisted, imports = whole_transfer(ctx, expr, base)
        name, edits = hoists.edits(loop, hoisted, base.value)
        edits += [*imports, Replace(expr, _on_device(source, name))]
        fix, why = _hoist_risk(ctx, stmt, expr, base, loop, jitted)
        if index.doubt and fix is _SAFE:
            fix, why = _UNSAFE, f"; unsafe: {index.doubt}"
        line = ctx.span(loop.node).line
        part = f"{name}{ctx.code(source)[len(base.value) :]}"
        message = (
            f"`{ctx.code(expr)}` copies part of `{base.value}`, which the loop at line {line} "
            f"does not change, to the device on every iteration: put all of it on the device "
            f"once before the loop (`{name} = {hoisted}`, which keeps the whole array in "
            f"device memory) and take the part there (`{part}`)"
        )
        title = f"Move `{base.value}` to the device once and slice it there"
        return self.finding(ctx, expr, message + why, fix, edits, title=title)

    def _inside_with(
        self, ctx: ModuleContext, loop: Loop, expr: cst.BaseExpression
    ) -> Finding | None:
        """No fix for a transfer inside a `with` block of the loop (it may set how)."""
        context = _enclosing_with(loop, expr)
        if context is None:
            return None
        return self.finding(
            ctx,
            expr,
            f"`{ctx.code(expr)}` transfers loop-invariant data on every iteration, but it "
            f"runs inside `with {ctx.code(context.items[0].item)}:`, which may change how "
            "it transfers (dtype, device); move the transfer yourself if that is intended",
            Applicability.NONE,
        )


def _on_device(source: cst.Subscript, name: str) -> Callable[[cst.CSTNode], cst.CSTNode]:
    """The replacement of a transfer of `X[...]`: the same index of `name`, on the device."""
    return lambda _node: source.with_changes(value=cst.Name(name))


@dataclass
class _Hoists:
    """One hoisted statement per loop and expression, shared by the findings that use it."""

    ctx: ModuleContext
    made: dict[tuple[int, str], tuple[str, cst.BaseStatement]] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)

    def edits(self, loop: Loop, hoisted: str, source: str) -> tuple[str, list[Edit]]:
        key = (loop.id, hoisted)
        if key not in self.made:
            base = "".join(c if c.isalnum() else "_" for c in source.split("[")[0]).strip("_")
            name = claim_name(self.ctx, f"{base or 'data'}_dev", self.names)
            self.made[key] = (name, cst.parse_statement(f"{name} = {hoisted}\n"))
        name, statement = self.made[key]
        return name, [InsertBefore(loop.node, (statement,))]


def _candidates(
    ctx: ModuleContext, places: Placement, stmt: Stmt, jitted: dict[str, Jitted]
) -> Iterator[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(the expression to replace, the host data it transfers) in one statement."""
    readable = {id(n) for n in read_names(stmt.node)} if not _is_compound(stmt) else set()
    for call in stmt.calls:
        if ctx.is_jax(call.func, *_TRANSFERS) and call.args and _plain(call.args[0].value):
            source = call.args[0].value
            if all(id(n) in readable for n in read_names(source)):
                yield call, source
        elif type(call.func) is cst.Name and call.func.value in jitted:
            for arg in call.args:
                value = arg.value
                named = type(value) is cst.Name and not arg.star and id(value) in readable
                host = named and places.place_of(stmt, value) is Place.HOST
                if host or _host_part(places, stmt, arg, readable):
                    yield value, value


def _host_part(places: Placement, stmt: Stmt, arg: cst.Arg, readable: set[int]) -> bool:
    """A jitted call's argument `X[...]`, part of a NumPy array named `X`."""
    value = arg.value
    if arg.star or type(value) is not cst.Subscript or type(value.value) is not cst.Name:
        return False
    if not _plain(value) or not all(id(n) in readable for n in read_names(value)):
        return False
    return places.place_of(stmt, value.value) is Place.HOST


def _module_names(ctx: ModuleContext) -> set[str]:
    """JAX, NumPy and math imports (`np`, `jnp`): names that hold no data (another module's
    attributes are data its functions may change)."""
    return {
        local
        for local, qual in ctx.imports.bindings.items()
        if qual.split(".")[0] in ("jax", "numpy", "math")
    }


def _enclosing_with(loop: Loop, expr: cst.CSTNode) -> cst.With | None:
    """A `with` block inside the loop that holds `expr` (hoisting would leave it)."""
    for node in walk(loop.node.body):
        if type(node) is cst.With and any(n is expr for n in walk(node.body)):
            return node
    return None


def _is_compound(stmt: Stmt) -> bool:
    return type(stmt.node) in (cst.For, cst.While, cst.If, cst.With, cst.FunctionDef)


def _plain(expr: cst.BaseExpression) -> bool:
    """A name, or attributes and subscripts of one (no calls)."""
    while type(expr) is cst.Attribute or type(expr) is cst.Subscript:
        if type(expr) is cst.Subscript and any(type(n) is cst.Call for n in _walk(expr.slice)):
            return False
        expr = expr.value
    return type(expr) is cst.Name


def _walk(nodes) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            found.append(node)
            return True

    for node in nodes:
        node.visit(Visitor())
    return found


def _outermost_invariant(ctx: ModuleContext, stmt: Stmt, reads: set[str]) -> Loop | None:
    """The outermost enclosing loop in which `reads` do not change (None: innermost changes)."""
    best = None
    sem = semantic(ctx)
    for loop_id in reversed(stmt.loops):
        loop = ctx.graph.loops[loop_id]
        if sem.variant_reason(loop, reads) is not None or not _defined_before(ctx, loop, reads):
            break
        if sem.config_writer(loop) is not None:  # a transfer's dtype follows `jax_enable_x64`
            break
        best = loop
    return best


def _defined_before(ctx: ModuleContext, loop: Loop, reads: set[str]) -> bool:
    """Every name is bound on every path to the loop (a parameter, or an earlier def)."""
    graph = ctx.graph
    header = graph.stmts[loop.header]
    fn = graph.functions.get(loop.scope)
    for name in reads:
        if fn is not None and name in fn.params:
            continue
        scopes = [loop.scope] if loop.scope == MODULE or _is_local(ctx, loop.scope, name) else []
        scopes = scopes or [MODULE]
        if not any(
            name in s.defs and (s.scope != loop.scope or graph.dominates(s, header))
            for scope in scopes
            for s in graph.scope_stmts(scope)
        ):
            return False
    return True


def _is_local(ctx: ModuleContext, scope: str, name: str) -> bool:
    return any(name in s.defs for s in ctx.graph.scope_stmts(scope))


def _hoisted_text(
    ctx: ModuleContext,
    places: Placement,
    stmt: Stmt,
    expr: cst.BaseExpression,
    source: cst.BaseExpression,
) -> tuple[str, tuple[RequireImport, ...]]:
    """`jax.device_put(x)` for a NumPy array, else the transfer exactly as written."""
    device_put, imports = ctx.ref("jax.device_put")
    simple = type(expr) is cst.Call and len(expr.args) == 1 and expr.args[0].keyword is None
    if expr is source or (simple and places.place_of(stmt, source) is Place.HOST):
        return f"{device_put}({ctx.code(source)})", imports
    return ctx.code(expr), ()


def _hoist_risk(
    ctx: ModuleContext,
    stmt: Stmt,
    expr: cst.BaseExpression,
    source: cst.BaseExpression,
    loop: Loop,
    jitted: dict,
) -> tuple[Applicability, str]:
    """Unsafe when the hoisted transfer may fail where the original never runs it, or
    when the one hoisted array may be donated."""
    doubt = hoist_doubt(ctx, stmt, loop, expr, source, frozenset(_module_names(ctx)))
    if doubt is not None:
        return _UNSAFE, f"; unsafe: {doubt}"
    return _donation_risk(ctx, stmt, expr, loop, jitted)


def _donation_risk(
    ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression, loop: Loop, jitted: dict
) -> tuple[Applicability, str]:
    """Unsafe when the one hoisted array may be donated (and deleted) by a call in the loop."""
    for other in ctx.graph.loop_stmts(loop.id):
        for call in other.calls:
            target = jitted.get(getattr(call.func, "value", None))
            if target is not None and any(k.startswith("donate") for k in target.options):
                return _UNSAFE, (
                    f"; unsafe: the loop calls `{target.name}`, which donates its buffers, "
                    "and could delete the one shared array"
                )
    node = stmt.node
    if type(node) is cst.Assign and node.value is expr:
        names = {n for t in node.targets for n in bound_names(t.target)}
        for other in ctx.graph.loop_stmts(loop.id):
            if other is not stmt and names & other.defs & other.uses and other.calls:
                return _UNSAFE, (
                    f"; unsafe: `{sorted(names)[0]}` is replaced by a call's output each "
                    "iteration, so donating that call's argument would delete the shared array"
                )
    verdict, _ = semantic(ctx).passed_on(stmt, expr, loop)
    if verdict.may is May.YES:
        return _UNSAFE, f"; unsafe: {verdict.why}, which would delete the one shared array"
    if verdict.may is May.UNKNOWN:
        return _UNSAFE, (
            f"; unsafe: not proven that no call donates (and deletes) the one shared array: "
            f"{verdict.why}"
        )
    return _SAFE, ""
